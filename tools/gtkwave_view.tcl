# GTKWave start-up script for an ssdtlm current.vcd: adds every supply-current signal, shows
# them as analog step waveforms and zooms to the whole run.
#   gtkwave -S tools/gtkwave_view.tcl out/default/current.vcd
set signals {}
for {set i 0} {$i < [gtkwave::getNumFacs]} {incr i} {
  lappend signals [gtkwave::getFacName $i]
}
gtkwave::addSignalsFromList $signals
gtkwave::/Edit/Highlight_All
gtkwave::/Edit/Data_Format/Analog/Step
gtkwave::/Edit/UnHighlight_All
gtkwave::/Time/Zoom/Zoom_Best_Fit

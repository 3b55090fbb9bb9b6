# Run at build time (cmake -P) when docs/config.md changes: writes OUT, a C++ source whose
# config_doc_text() returns IN's text (tb/run/ConfigDocText.h), so `ssdtlm explain` reads the
# page's own words and they are written once.
file(READ "${IN}" text)
set(delimiter "ssdtlm_doc")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} holds \")${delimiter}\"\", which ends the raw string it is embedded in")
endif()
file(WRITE "${OUT}"
     "// Generated from ${IN} by cmake/ConfigDocText.cmake.\n"
     "#include \"tb/run/ConfigDocText.h\"\n\n"
     "std::string_view ssd::tb::config_doc_text() {\n"
     "  return R\"${delimiter}(${text})${delimiter}\";\n"
     "}\n")

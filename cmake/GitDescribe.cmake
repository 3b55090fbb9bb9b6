# Run at every build (cmake -P): writes OUT, a header defining SSDTLM_GIT_DESCRIBE as
# `git describe --always --dirty --tags` of SOURCE_DIR ("unknown" outside a git checkout),
# and rewrites it only when that changes, so an unchanged tree rebuilds nothing.
execute_process(COMMAND git describe --always --dirty --tags
                WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR describe STREQUAL "")
  set(describe "unknown")
endif()
set(text "#define SSDTLM_GIT_DESCRIBE \"${describe}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

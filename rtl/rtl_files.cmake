# The one source list per RTL top: rtl/<top>.f (Verilator's -F format, as verilator's
# examples/make_tracing_c/input.vc is reused by examples/cmake_tracing_c): one path per line in
# compile order, relative to the list's own folder; `-F other.f` includes another list; `//`
# comments. Every build reads these lists: rtl/CMakeLists.txt (lint, Yosys checks), cosim/,
# cosim/tlm_calibration/, tests/hw and scripts/synth.sh. Included from the top-level CMakeLists.txt
# so that every folder can call it whatever the order of add_subdirectory.

# hifsim_rtl_sources(<top> <out-var>): the absolute paths of rtl/<top>.f (<top> may be a path
# below rtl/, e.g. array/hif4_array_top), duplicates removed (the first occurrence stays).
function(hifsim_rtl_sources top out)
  hifsim_rtl_sources_in("${PROJECT_SOURCE_DIR}/rtl" ${top} srcs)
  set(${out} ${srcs} PARENT_SCOPE)
endfunction()

# hifsim_rtl_sources_in(<rtl-dir> <top> <out-var>): the same from <rtl-dir>/<top>.f (the mutation
# campaign builds from a copy of rtl/, lists included).
function(hifsim_rtl_sources_in dir top out)
  set(srcs)
  _hifsim_rtl_read("${dir}/${top}.f" srcs)
  list(REMOVE_DUPLICATES srcs)
  set(${out} ${srcs} PARENT_SCOPE)
endfunction()

function(_hifsim_rtl_read list_file acc)
  get_filename_component(list_file "${list_file}" ABSOLUTE)  # rtl/array/../x.f -> rtl/x.f
  if(NOT EXISTS "${list_file}")
    message(FATAL_ERROR "RTL file list ${list_file} does not exist")
  endif()
  # Re-run CMake when a list changes (recorded once, on the top-level directory).
  get_property(deps DIRECTORY "${PROJECT_SOURCE_DIR}" PROPERTY CMAKE_CONFIGURE_DEPENDS)
  if(NOT "${list_file}" IN_LIST deps)
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${list_file}")
  endif()
  get_filename_component(dir "${list_file}" DIRECTORY)
  file(STRINGS "${list_file}" lines)
  set(v ${${acc}})
  foreach(l IN LISTS lines)
    string(REGEX REPLACE "//.*$" "" l "${l}")
    string(STRIP "${l}" l)
    if(l STREQUAL "")
      continue()
    endif()
    if(l MATCHES "^-F[ \t]+(.+)$")
      set(inner)
      _hifsim_rtl_read("${dir}/${CMAKE_MATCH_1}" inner)
      list(APPEND v ${inner})
    else()
      get_filename_component(p "${dir}/${l}" ABSOLUTE)
      if(NOT EXISTS "${p}")
        message(FATAL_ERROR "${list_file}: ${l} does not exist")
      endif()
      list(APPEND v "${p}")
    endif()
  endforeach()
  set(${acc} ${v} PARENT_SCOPE)
endfunction()

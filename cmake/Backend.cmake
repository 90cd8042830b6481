# The switch every optional backend has: RIDGE_<NAME>=AUTO builds it when its tools are found, ON
# insists, OFF skips; RIDGE_HAVE_<NAME> says whether it is built. A macro, so that its return()
# ends the backend's own file when the backend is off, or AUTO in a sanitized build (why is
# `sanitizer_reason`).
macro(ridge_backend_switch name what sanitizer_reason)
  set(RIDGE_${name} AUTO CACHE STRING "Build ${what}: AUTO, ON or OFF")
  set_property(CACHE RIDGE_${name} PROPERTY STRINGS AUTO ON OFF)
  set(RIDGE_HAVE_${name} OFF)
  if(RIDGE_SANITIZE AND RIDGE_${name} STREQUAL "AUTO")
    message(STATUS "ridge: ${what} skipped in a sanitized build: ${sanitizer_reason}")
    return()
  endif()
  if(RIDGE_${name} STREQUAL "OFF")
    return()
  endif()
endmacro()

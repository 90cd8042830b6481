# The optional MPI backend of `ridge measure collectives`. RIDGE_MPI=AUTO builds it when CMake
# finds MPI (OpenMPI from Debian: libopenmpi-dev), ON insists, OFF skips. Sets RIDGE_HAVE_MPI.
include(cmake/Backend.cmake)
ridge_backend_switch(MPI "the MPI backend of ridge measure collectives"
  "OpenMPI keeps allocations until exit that LeakSanitizer reports as leaks of ridge's")
find_package(MPI COMPONENTS CXX QUIET)
if(MPI_CXX_FOUND)
  set(RIDGE_HAVE_MPI ON)
  message(STATUS "ridge: MPI backend with ${MPIEXEC_EXECUTABLE}")
elseif(RIDGE_MPI STREQUAL "ON")
  message(FATAL_ERROR "RIDGE_MPI=ON but CMake found no MPI (install libopenmpi-dev)")
else()
  message(STATUS "ridge: no MPI; ridge measure collectives will say so")
endif()

# The optional CUDA backend of `ridge measure`. RIDGE_CUDA=AUTO builds it when a CUDA compiler is
# found, ON insists, OFF skips. Sets RIDGE_HAVE_CUDA.
include(cmake/Backend.cmake)
ridge_backend_switch(CUDA "the CUDA backend of ridge measure"
  "ASan's shadow memory collides with the CUDA driver's address reservations, and ASan cannot see into GPU code (compute-sanitizer can)")

# The toolkit's usual home, for shells whose PATH lacks it.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
  find_program(ridge_nvcc_on_path nvcc)
  if(NOT ridge_nvcc_on_path)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  if(RIDGE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "RIDGE_CUDA=ON but no CUDA compiler was found (set CUDACXX)")
  endif()
  message(STATUS "ridge: no CUDA compiler; ridge measure --backend cuda will say so")
  return()
endif()

# The GPUs a user has when one is present, else the data-centre generations: Ampere (sm_80),
# Hopper (sm_90) and Blackwell (sm_100).
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(ridge_gpu_present FALSE)
  find_program(ridge_nvidia_smi nvidia-smi)
  if(ridge_nvidia_smi)
    execute_process(COMMAND "${ridge_nvidia_smi}" -L RESULT_VARIABLE ridge_smi_status
                    OUTPUT_QUIET ERROR_QUIET TIMEOUT 20)
    if(ridge_smi_status EQUAL 0)
      set(ridge_gpu_present TRUE)
    endif()
  endif()
  if(ridge_gpu_present)
    set(CMAKE_CUDA_ARCHITECTURES native)
  else()
    set(CMAKE_CUDA_ARCHITECTURES 80 90 100)
  endif()
endif()

enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 knows no C++20 flag for nvcc; the kernels need none
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
find_package(CUDAToolkit REQUIRED)
set(RIDGE_HAVE_CUDA ON)
message(STATUS "ridge: CUDA backend for architectures ${CMAKE_CUDA_ARCHITECTURES}")

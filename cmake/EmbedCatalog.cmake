# Compiles the device TOML files into the library, so the binary needs no files beside it.
# Each file becomes one raw string literal in a generated source file.
function(ridge_embed_catalog out_file)
  file(GLOB device_files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/data/devices/*.toml")
  list(SORT device_files)
  set(entries "")
  foreach(path IN LISTS device_files)
    file(READ "${path}" text)
    get_filename_component(name "${path}" NAME)
    string(APPEND entries "    {\"${name}\", R\"ridge_toml(${text})ridge_toml\"},\n")
  endforeach()
  configure_file("${PROJECT_SOURCE_DIR}/cmake/catalog_data.cc.in" "${out_file}" @ONLY)
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${device_files})
endfunction()

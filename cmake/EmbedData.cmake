# Compiles data files into the library, so the binary needs no files beside it. Each file
# becomes one raw string literal in a generated source file.
function(ridge_embed_files out_file function_name pattern)
  file(GLOB files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/${pattern}")
  list(SORT files)
  set(entries "")
  foreach(path IN LISTS files)
    file(READ "${path}" text)
    get_filename_component(name "${path}" NAME)
    string(APPEND entries "    {\"${name}\", R\"ridge_data(${text})ridge_data\"},\n")
  endforeach()
  configure_file("${PROJECT_SOURCE_DIR}/cmake/embedded_data.cc.in" "${out_file}" @ONLY)
  # Re-embed when a file changes, not only when files are added or removed.
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${files})
endfunction()

# fmuc_add_fmu(): package a shared-library target as an FMU (zip), shared by fmi_export/ and
# reference_fmus/. The .fmu is a real build output that tests can depend on (target fmu_<NAME>).
#
#   fmuc_add_fmu(NAME <name> TARGET <module-lib> XML <modelDescription.xml>
#                [MODEL_IDENTIFIER <id>]   # library file name; default: NAME
#                [PLATFORM <dir>]          # default linux64
#                [RESOURCES <file>...]     # copied into resources/ (flat)
#                [RESOURCE_DIRS <dir>...]  # copied recursively into resources/
#                [EXTRA <src>=<dst>...]    # any other file at an archive path (may be used by
#                                          # broken fixtures to add odd entries)
#                [NO_BINARY]               # leave the library out (fixture for a missing binary)
#                [OUTPUT_DIR <dir>])       # default ${CMAKE_BINARY_DIR}/fmus
function(fmuc_add_fmu)
  cmake_parse_arguments(F "NO_BINARY" "NAME;TARGET;XML;MODEL_IDENTIFIER;PLATFORM;OUTPUT_DIR"
                        "RESOURCES;RESOURCE_DIRS;EXTRA" ${ARGN})
  if(NOT F_NAME OR NOT F_XML)
    message(FATAL_ERROR "fmuc_add_fmu: NAME and XML are required")
  endif()
  if(NOT F_MODEL_IDENTIFIER)
    set(F_MODEL_IDENTIFIER ${F_NAME})
  endif()
  if(NOT F_PLATFORM)
    set(F_PLATFORM linux64)
  endif()
  if(NOT F_OUTPUT_DIR)
    set(F_OUTPUT_DIR ${CMAKE_BINARY_DIR}/fmus)
  endif()
  set(stage ${CMAKE_CURRENT_BINARY_DIR}/fmu_stage/${F_NAME})
  set(out ${F_OUTPUT_DIR}/${F_NAME}.fmu)
  file(MAKE_DIRECTORY ${stage} ${F_OUTPUT_DIR})

  set(cmds COMMAND ${CMAKE_COMMAND} -E rm -rf ${stage}
           COMMAND ${CMAKE_COMMAND} -E make_directory ${stage}
           COMMAND ${CMAKE_COMMAND} -E copy ${F_XML} ${stage}/modelDescription.xml)
  set(deps ${F_XML})
  set(entries modelDescription.xml)
  if(F_TARGET AND NOT F_NO_BINARY)
    list(APPEND cmds
         COMMAND ${CMAKE_COMMAND} -E make_directory ${stage}/binaries/${F_PLATFORM}
         COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:${F_TARGET}>
                 ${stage}/binaries/${F_PLATFORM}/${F_MODEL_IDENTIFIER}.so)
    list(APPEND deps ${F_TARGET})
    list(APPEND entries binaries)
  endif()
  if(F_RESOURCES OR F_RESOURCE_DIRS)
    list(APPEND cmds COMMAND ${CMAKE_COMMAND} -E make_directory ${stage}/resources)
    list(APPEND entries resources)
  endif()
  foreach(r IN LISTS F_RESOURCES)
    list(APPEND cmds COMMAND ${CMAKE_COMMAND} -E copy ${r} ${stage}/resources/)
    list(APPEND deps ${r})
  endforeach()
  foreach(d IN LISTS F_RESOURCE_DIRS)
    list(APPEND cmds COMMAND ${CMAKE_COMMAND} -E copy_directory ${d} ${stage}/resources)
    file(GLOB_RECURSE dfiles CONFIGURE_DEPENDS ${d}/*)
    list(APPEND deps ${dfiles})
  endforeach()
  foreach(e IN LISTS F_EXTRA)
    string(REPLACE "=" ";" pair ${e})
    list(GET pair 0 src)
    list(GET pair 1 dst)
    get_filename_component(dstdir ${dst} DIRECTORY)
    if(dstdir)
      list(APPEND cmds COMMAND ${CMAKE_COMMAND} -E make_directory ${stage}/${dstdir})
    endif()
    list(APPEND cmds COMMAND ${CMAKE_COMMAND} -E copy ${src} ${stage}/${dst})
    list(APPEND deps ${src})
    string(REGEX REPLACE "/.*" "" top ${dst})
    list(APPEND entries ${top})
  endforeach()
  list(REMOVE_DUPLICATES entries)
  add_custom_command(OUTPUT ${out}
    ${cmds}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${out}
    COMMAND ${CMAKE_COMMAND} -E tar cf ${out} --format=zip ${entries}
    WORKING_DIRECTORY ${stage}
    DEPENDS ${deps}
    COMMENT "Packaging FMU ${F_NAME}.fmu"
    VERBATIM)
  add_custom_target(fmu_${F_NAME} ALL DEPENDS ${out})
  set_property(GLOBAL APPEND PROPERTY FMUC_ALL_FMUS ${out})
  set_property(GLOBAL APPEND PROPERTY FMUC_ALL_FMU_TARGETS fmu_${F_NAME})
endfunction()

# fmuc_fmu_library(<target> SOURCES ... ): a MODULE library exporting only fmi2* symbols.
function(fmuc_fmu_library target)
  cmake_parse_arguments(L "" "" "SOURCES;LINK" ${ARGN})
  add_library(${target} MODULE ${L_SOURCES})
  set_target_properties(${target} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden
                        POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/harness/include)
  target_compile_definitions(${target} PRIVATE FMUC_FMI2_EXPORTING)
  target_link_options(${target} PRIVATE
                      "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/fmi2.map"
                      "LINKER:--no-undefined" "LINKER:-z,noexecstack")
  target_link_libraries(${target} PRIVATE fmuc_warnings ${L_LINK})
endfunction()

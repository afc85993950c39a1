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
#                [OUTPUT_DIR <dir>]        # default ${CMAKE_BINARY_DIR}/fmus
#                [FMU_FILE <basename>])    # <OUTPUT_DIR>/<FMU_FILE>.fmu; default NAME
function(fmuc_add_fmu)
  cmake_parse_arguments(F "NO_BINARY" "NAME;TARGET;XML;MODEL_IDENTIFIER;PLATFORM;OUTPUT_DIR;FMU_FILE"
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
  if(NOT F_FMU_FILE)
    set(F_FMU_FILE ${F_NAME})
  endif()
  set(stage ${CMAKE_CURRENT_BINARY_DIR}/fmu_stage/${F_NAME})
  set(out ${F_OUTPUT_DIR}/${F_FMU_FILE}.fmu)
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
    COMMAND ${CMAKE_COMMAND} -E chdir ${stage} ${CMAKE_COMMAND} -E tar cf ${out} --format=zip
            ${entries}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    DEPENDS ${deps}
    COMMENT "Packaging FMU ${F_FMU_FILE}.fmu"
    VERBATIM)
  add_custom_target(fmu_${F_NAME} ALL DEPENDS ${out})
  set_property(GLOBAL APPEND PROPERTY FMUC_ALL_FMUS ${out})
  set_property(GLOBAL APPEND PROPERTY FMUC_ALL_FMU_TARGETS fmu_${F_NAME})
endfunction()

# fmuc_fmu_library(<target> SOURCES ... [FMI_VERSION 2|3]): a MODULE library exporting only the
# fmi2* (default) or fmi3* symbols.
function(fmuc_fmu_library target)
  cmake_parse_arguments(L "" "FMI_VERSION" "SOURCES;LINK" ${ARGN})
  if(NOT L_FMI_VERSION)
    set(L_FMI_VERSION 2)
  endif()
  add_library(${target} MODULE ${L_SOURCES})
  set_target_properties(${target} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden
                        POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/fmi)
  target_compile_definitions(${target} PRIVATE FMUC_FMI${L_FMI_VERSION}_EXPORTING
                             FMUC_FMI_VERSION=${L_FMI_VERSION})
  target_link_options(${target} PRIVATE
                      "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/fmi${L_FMI_VERSION}.map"
                      "LINKER:--no-undefined" "LINKER:-z,noexecstack")
  target_link_libraries(${target} PRIVATE fmuc_warnings fmuc_fmi ${L_LINK})
endfunction()

# fmuc_add_model_fmu(): an FMU from a model on the fmuc glue (fmi_export/glue/, see its README).
# Builds glue + model into a MODULE library named <MODEL_IDENTIFIER>.so, builds the host tool
# mdgen_<NAME> from the same sources, runs it to write modelDescription.xml (GUID derived from the
# model table, so XML and binary agree), and packages the FMU with fmuc_add_fmu().
#
#   fmuc_add_model_fmu(NAME <name> SOURCES <model.c>...
#                      [MODEL_IDENTIFIER <id>]    # must equal the descriptor's; default NAME
#                      [DEFINES <def>...]         # compile definitions (e.g. FMUC_DEFECT_*)
#                      [INCLUDES <dir>...] [LINK <lib>...] [MDGEN_LINK <lib>...]
#                      [RESOURCES <file>...] [RESOURCE_DIRS <dir>...] [EXTRA <src>=<dst>...]
#                      [XML_OVERRIDE <file>]      # ship this XML verbatim instead of mdgen's
#                      [XML_SED <script>]         # sed -f <script> over mdgen's XML
#                      [LENIENT]                  # mdgen only warns about table errors
#                      [NO_BINARY] [OUTPUT_DIR <dir>] [FMU_FILE <basename>]
#                      [FMI_VERSION 2|3])         # 3: fmi3_glue.c, mdgen --fmi3, x86_64-linux
# Both the library and mdgen see FMUC_FMI_VERSION=<2|3> (a model may differ per version, e.g.
# arrays in FMI 3.0).
# Targets: fmulib_<NAME> (library), mdgen_<NAME>, fmu_<NAME>; the generated XML is
# ${CMAKE_CURRENT_BINARY_DIR}/mdgen/<NAME>/modelDescription.xml.
set(FMUC_GLUE_DIR ${CMAKE_CURRENT_LIST_DIR}/../fmi_export/glue)
function(fmuc_add_model_fmu)
  cmake_parse_arguments(M "LENIENT;NO_BINARY"
    "NAME;MODEL_IDENTIFIER;XML_OVERRIDE;XML_SED;OUTPUT_DIR;FMU_FILE;REUSE;FMI_VERSION"
    "SOURCES;DEFINES;INCLUDES;LINK;MDGEN_LINK;RESOURCES;RESOURCE_DIRS;EXTRA" ${ARGN})
  if(NOT M_NAME OR (NOT M_SOURCES AND NOT M_REUSE))
    message(FATAL_ERROR "fmuc_add_model_fmu: NAME and SOURCES (or REUSE) are required")
  endif()
  if(NOT M_MODEL_IDENTIFIER)
    set(M_MODEL_IDENTIFIER ${M_NAME})
  endif()
  if(NOT M_FMI_VERSION)
    set(M_FMI_VERSION 2)
  endif()
  get_filename_component(glue ${FMUC_GLUE_DIR} ABSOLUTE)
  set(glue_src ${glue}/fmi${M_FMI_VERSION}_glue.c ${glue}/glue_core.c ${glue}/model_table.c)
  if(M_FMI_VERSION STREQUAL "3")
    list(APPEND glue_src ${glue}/fmi3_glue_sp.c) # structural parameters (Configuration Mode)
  endif()
  set(mdgen_version)
  set(platform linux64)
  if(M_FMI_VERSION EQUAL 3)
    set(mdgen_version --fmi3)
    set(platform x86_64-linux)
  endif()

  # REUSE <name>: package the library and generated XML of an FMU made earlier in this folder
  # with fmuc_add_model_fmu (fixtures whose only defect is in the XML or the archive need no
  # compilation of their own).
  if(M_REUSE)
    set(lib fmulib_${M_REUSE})
    set(gendir ${CMAKE_CURRENT_BINARY_DIR}/mdgen/${M_NAME})
    file(MAKE_DIRECTORY ${gendir})
    set(genxml ${CMAKE_CURRENT_BINARY_DIR}/mdgen/${M_REUSE}/modelDescription.xml)
    set(genxml_deps ${genxml} mdxml_${M_REUSE})
  else()
    set(lib fmulib_${M_NAME})
    set(genxml_deps)
    fmuc_fmu_library(fmulib_${M_NAME} SOURCES ${glue_src} ${M_SOURCES} LINK ${M_LINK} m
                     FMI_VERSION ${M_FMI_VERSION})
    set_target_properties(fmulib_${M_NAME} PROPERTIES OUTPUT_NAME ${M_MODEL_IDENTIFIER}
      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fmulib/${M_NAME})
    target_include_directories(fmulib_${M_NAME} PRIVATE ${glue} ${M_INCLUDES})
    target_compile_definitions(fmulib_${M_NAME} PRIVATE _GNU_SOURCE ${M_DEFINES})
    target_link_libraries(fmulib_${M_NAME} PRIVATE fmuc_fp_strict)

    set(gendir ${CMAKE_CURRENT_BINARY_DIR}/mdgen/${M_NAME})
    file(MAKE_DIRECTORY ${gendir})
    add_executable(mdgen_${M_NAME} ${glue}/mdgen.c ${glue}/mdgen_xml.c ${glue_src} ${M_SOURCES})
    target_include_directories(mdgen_${M_NAME} PRIVATE ${glue} ${PROJECT_SOURCE_DIR}/fmi
                               ${M_INCLUDES})
    target_compile_definitions(mdgen_${M_NAME} PRIVATE _GNU_SOURCE FMUC_FMI${M_FMI_VERSION}_EXPORTING
                               FMUC_FMI_VERSION=${M_FMI_VERSION} ${M_DEFINES})
    target_link_libraries(mdgen_${M_NAME} PRIVATE fmuc_warnings fmuc_fp_strict fmuc_fmi ${M_LINK}
                          ${M_MDGEN_LINK} m)
    set(lenient)
    if(M_LENIENT)
      set(lenient --lenient)
    endif()
    set(genxml ${gendir}/modelDescription.xml)
    add_custom_command(OUTPUT ${genxml}
      COMMAND mdgen_${M_NAME} ${lenient} ${mdgen_version} ${genxml}
      DEPENDS mdgen_${M_NAME}
      COMMENT "Generating modelDescription.xml for ${M_NAME}"
      VERBATIM)
    set(genxml_deps ${genxml})
  endif()
  set(xml ${genxml})
  if(M_XML_OVERRIDE)
    set(xml ${M_XML_OVERRIDE})
  elseif(M_XML_SED)
    set(xml ${gendir}/modelDescription.sed.xml)
    add_custom_command(OUTPUT ${xml}
      COMMAND sed -f ${M_XML_SED} ${genxml} > ${xml}
      DEPENDS ${genxml_deps} ${M_XML_SED}
      COMMENT "Deriving modelDescription.xml for ${M_NAME} with ${M_XML_SED}")
  endif()
  if(M_REUSE)
    add_custom_target(mdxml_${M_NAME} DEPENDS ${xml})
    add_dependencies(mdxml_${M_NAME} mdxml_${M_REUSE})
  else()
    add_custom_target(mdxml_${M_NAME} DEPENDS ${genxml} ${xml})
  endif()

  set(extra_args)
  if(M_NO_BINARY)
    list(APPEND extra_args NO_BINARY)
  endif()
  if(M_OUTPUT_DIR)
    list(APPEND extra_args OUTPUT_DIR ${M_OUTPUT_DIR})
  endif()
  if(M_FMU_FILE)
    list(APPEND extra_args FMU_FILE ${M_FMU_FILE})
  endif()
  fmuc_add_fmu(NAME ${M_NAME} TARGET ${lib} XML ${xml}
               MODEL_IDENTIFIER ${M_MODEL_IDENTIFIER} PLATFORM ${platform}
               RESOURCES ${M_RESOURCES} RESOURCE_DIRS ${M_RESOURCE_DIRS} EXTRA ${M_EXTRA}
               ${extra_args})
  if(M_REUSE)
    add_dependencies(fmu_${M_NAME} mdxml_${M_REUSE} mdxml_${M_NAME})
  endif()
endfunction()

# fmuc_add_fmi1_model_fmu(): an FMI 1.0 FMU from a model on the fmuc glue. A 1.0 FMU implements
# one standard: KIND ME (Model Exchange 1.0, fmi1_me_glue.c) or CS (Co-Simulation 1.0,
# fmi1_cs_glue.c), both with fmi1_glue_common.c. The library exports only
# <MODEL_IDENTIFIER>_fmi* (cmake/fmi1.map); the host tool mdgen1_<NAME> writes the 1.0
# modelDescription.xml from the same table (GUID salted with FMUC_M_GUID_SALT_FMI1, so it never
# equals the 2.0 FMU's), and fmuc_add_fmu() packages it (binaries/linux64/<id>.so). Library and
# mdgen1 see FMUC_FMI_VERSION=1, as the 2.0/3.0 builds see 2/3.
#
#   fmuc_add_fmi1_model_fmu(NAME <name> KIND ME|CS SOURCES <model.c>...
#                           [MODEL_IDENTIFIER <id>]   # must equal the descriptor's; default NAME
#                           [DEFINES <def>...] [INCLUDES <dir>...] [LINK <lib>...]
#                           [XML_OVERRIDE <file>] [XML_SED <script>] [LENIENT]
#                           [OUTPUT_DIR <dir>] [FMU_FILE <basename>])
# Targets: fmulib_<NAME>, mdgen1_<NAME>, fmu_<NAME>; the generated XML is
# ${CMAKE_CURRENT_BINARY_DIR}/mdgen/<NAME>/modelDescription.xml.
function(fmuc_add_fmi1_model_fmu)
  cmake_parse_arguments(M "LENIENT" "NAME;KIND;MODEL_IDENTIFIER;XML_OVERRIDE;XML_SED;OUTPUT_DIR;FMU_FILE"
    "SOURCES;DEFINES;INCLUDES;LINK" ${ARGN})
  if(NOT M_NAME OR NOT M_SOURCES OR NOT M_KIND MATCHES "^(ME|CS)$")
    message(FATAL_ERROR "fmuc_add_fmi1_model_fmu: NAME, KIND ME|CS and SOURCES are required")
  endif()
  if(NOT M_MODEL_IDENTIFIER)
    set(M_MODEL_IDENTIFIER ${M_NAME})
  endif()
  string(TOLOWER ${M_KIND} kind)
  get_filename_component(glue ${FMUC_GLUE_DIR} ABSOLUTE)
  set(glue_src ${glue}/fmi1_glue_common.c ${glue}/fmi1_${kind}_glue.c ${glue}/glue_core.c
                ${glue}/model_table.c)
  set(defs _GNU_SOURCE MODEL_IDENTIFIER=${M_MODEL_IDENTIFIER} FMUC_FMI1_EXPORTING_${M_KIND}
      FMUC_FMI_VERSION=1 ${M_DEFINES})

  add_library(fmulib_${M_NAME} MODULE ${glue_src} ${M_SOURCES})
  set_target_properties(fmulib_${M_NAME} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden
    POSITION_INDEPENDENT_CODE ON OUTPUT_NAME ${M_MODEL_IDENTIFIER}
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fmulib/${M_NAME}
    LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/fmi1.map)
  target_include_directories(fmulib_${M_NAME} PRIVATE ${glue} ${M_INCLUDES})
  target_compile_definitions(fmulib_${M_NAME} PRIVATE ${defs})
  target_link_options(fmulib_${M_NAME} PRIVATE
                      "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/fmi1.map"
                      "LINKER:--no-undefined" "LINKER:-z,noexecstack")
  target_link_libraries(fmulib_${M_NAME} PRIVATE fmuc_fmi fmuc_warnings fmuc_fp_strict ${M_LINK} m)

  set(gendir ${CMAKE_CURRENT_BINARY_DIR}/mdgen/${M_NAME})
  file(MAKE_DIRECTORY ${gendir})
  add_executable(mdgen1_${M_NAME} ${glue}/mdgen1.c ${glue}/mdgen_xml.c ${glue_src} ${M_SOURCES})
  target_include_directories(mdgen1_${M_NAME} PRIVATE ${glue} ${M_INCLUDES})
  target_compile_definitions(mdgen1_${M_NAME} PRIVATE ${defs})
  target_link_libraries(mdgen1_${M_NAME} PRIVATE fmuc_fmi fmuc_warnings fmuc_fp_strict ${M_LINK} m)
  set(lenient)
  if(M_LENIENT)
    set(lenient --lenient)
  endif()
  set(genxml ${gendir}/modelDescription.xml)
  add_custom_command(OUTPUT ${genxml}
    COMMAND mdgen1_${M_NAME} --kind ${kind} ${lenient} ${genxml}
    DEPENDS mdgen1_${M_NAME}
    COMMENT "Generating the FMI 1.0 modelDescription.xml for ${M_NAME}"
    VERBATIM)
  set(xml ${genxml})
  if(M_XML_OVERRIDE)
    set(xml ${M_XML_OVERRIDE})
  elseif(M_XML_SED)
    set(xml ${gendir}/modelDescription.sed.xml)
    add_custom_command(OUTPUT ${xml}
      COMMAND sed -f ${M_XML_SED} ${genxml} > ${xml}
      DEPENDS ${genxml} ${M_XML_SED}
      COMMENT "Deriving modelDescription.xml for ${M_NAME} with ${M_XML_SED}")
  endif()
  add_custom_target(mdxml_${M_NAME} DEPENDS ${genxml} ${xml})

  set(extra_args)
  if(M_OUTPUT_DIR)
    list(APPEND extra_args OUTPUT_DIR ${M_OUTPUT_DIR})
  endif()
  if(M_FMU_FILE)
    list(APPEND extra_args FMU_FILE ${M_FMU_FILE})
  endif()
  fmuc_add_fmu(NAME ${M_NAME} TARGET fmulib_${M_NAME} XML ${xml}
               MODEL_IDENTIFIER ${M_MODEL_IDENTIFIER} ${extra_args})
endfunction()

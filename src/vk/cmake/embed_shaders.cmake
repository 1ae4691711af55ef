# vksort_embed_shaders(<out_c_var> NAME <name> SHADER_DIR <dir> GLSLC <exe> SPIRV_VAL <exe>
#                      SOURCES <file>...)
# For programs beside the library (demo, benchmark): compiles each GLSL file of SHADER_DIR with
# glslc (Vulkan 1.2, -O, includes from SHADER_DIR), checks it with spirv-val, and embeds every
# module with embed_spirv.cmake into ${CMAKE_CURRENT_BINARY_DIR}/<name>_spirv.c (modules named
# <file>_<stage>, e.g. simulate_comp; the table is vksort_spirv_blobs, which the program renames
# in its own spirv_blobs.h). Sets <out_c_var> to that C file.
function(vksort_embed_shaders out_c_var)
  cmake_parse_arguments(E "" "NAME;SHADER_DIR;GLSLC;SPIRV_VAL" "SOURCES" ${ARGN})
  set(spv_dir ${CMAKE_CURRENT_BINARY_DIR}/spirv)
  file(MAKE_DIRECTORY ${spv_dir})
  set(manifest_text "")
  set(spvs "")
  foreach(src ${E_SOURCES})
    string(REPLACE "." "_" name ${src})
    set(spv ${spv_dir}/${name}.spv)
    add_custom_command(OUTPUT ${spv}
      COMMAND ${E_GLSLC} --target-env=vulkan1.2 -O -I${E_SHADER_DIR}
              -MD -MF ${spv}.d -MT ${spv} -o ${spv} ${E_SHADER_DIR}/${src}
      COMMAND ${E_SPIRV_VAL} --target-env vulkan1.2 ${spv}
      DEPENDS ${E_SHADER_DIR}/${src}
      DEPFILE ${spv}.d
      COMMENT "glslc + spirv-val ${E_NAME} ${src}"
      VERBATIM)
    string(APPEND manifest_text "${name} ${spv}\n")
    list(APPEND spvs ${spv})
  endforeach()
  set(manifest ${CMAKE_CURRENT_BINARY_DIR}/${E_NAME}_spirv_manifest.txt)
  file(WRITE ${manifest}.tmp "${manifest_text}")
  configure_file(${manifest}.tmp ${manifest} COPYONLY)
  set(out_c ${CMAKE_CURRENT_BINARY_DIR}/${E_NAME}_spirv.c)
  set(embed ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_spirv.cmake)
  add_custom_command(OUTPUT ${out_c}
    COMMAND ${CMAKE_COMMAND} -DMANIFEST=${manifest} -DOUTPUT=${out_c} -P ${embed}
    DEPENDS ${spvs} ${manifest} ${embed}
    COMMENT "Embedding the ${E_NAME} SPIR-V"
    VERBATIM)
  set(${out_c_var} ${out_c} PARENT_SCOPE)
endfunction()

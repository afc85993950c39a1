# Warning and hardening flags as INTERFACE targets, linked PRIVATE; CMAKE_C_FLAGS is never touched.
add_library(fmuc_warnings INTERFACE)
target_compile_options(fmuc_warnings INTERFACE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
                       -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral)
# Criterion's macros trip -Wmissing-prototypes style warnings; tests use the lighter set.
add_library(fmuc_test_warnings INTERFACE)
target_compile_options(fmuc_test_warnings INTERFACE -Wall -Wextra -Werror)

# Floating point: bit-exact between the static core and the FMU (vehicle-brief §5).
add_library(fmuc_fp_strict INTERFACE)
target_compile_options(fmuc_fp_strict INTERFACE -ffp-contract=off -fno-fast-math
                       -fno-builtin-sin -fno-builtin-cos -fno-builtin-tan -fno-builtin-atan
                       -fno-builtin-atan2 -fno-builtin-exp -fno-builtin-pow)

add_library(fmuc_sanitize INTERFACE)
if(FMUC_SANITIZE)
  target_compile_options(fmuc_sanitize INTERFACE -fsanitize=address,undefined
                         -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(fmuc_sanitize INTERFACE -fsanitize=address,undefined)
endif()

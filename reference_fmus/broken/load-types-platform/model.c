/* Fixture: the SpringMassDamper model, but fmi2GetTypesPlatform returns "custom" instead of
 * "default" (DEFINES renames the glue's own function, which the version script then hides). */
#include "../../good/SpringMassDamper/model.c"

#undef fmi2GetTypesPlatform
FMI2_Export const char *fmi2GetTypesPlatform(void);
FMI2_Export const char *fmi2GetTypesPlatform(void)
{
    return "custom";
}

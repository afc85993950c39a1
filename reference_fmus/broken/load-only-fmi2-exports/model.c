/* Fixture: the SpringMassDamper model plus one exported non-fmi2 symbol (and a version script
 * that lets it through). */
#include "../../good/SpringMassDamper/model.c"

__attribute__((visibility("default"))) int vd_fixture_extra_export(void);
__attribute__((visibility("default"))) int vd_fixture_extra_export(void)
{
    return 7;
}

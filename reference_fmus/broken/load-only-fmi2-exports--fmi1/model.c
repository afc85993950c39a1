/* Fixture (FMI 1.0): the Model Exchange 1.0 Stair plus one exported symbol without the
 * Stair_fmi prefix (and a version script that lets it through). */
#include "../../fmi1/good/me/Stair/model.c"

__attribute__((visibility("default"))) int vd_fixture_extra_export(void);
__attribute__((visibility("default"))) int vd_fixture_extra_export(void)
{
    return 7;
}

/* zip-extra-reverse-domain: files in extra/ sit in sub-folders named by reverse domain notation
 * (e.g. extra/com.example.tool/); org.modelica and org.fmi-standard are reserved for layered
 * standards (FMI 2.0.4 §2.3.1, A-25). */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "zip_util.h"

static int reverse_domain(const char *p)
{
    size_t labels = 0;
    while (*p) {
        size_t len = strcspn(p, ".");
        if (len == 0)
            return 0;
        for (size_t i = 0; i < len; i++)
            if (!isalnum((unsigned char)p[i]) && p[i] != '-' && p[i] != '_')
                return 0;
        if (labels == 0 && !isalpha((unsigned char)p[0]))
            return 0;
        labels++;
        p += len;
        if (*p && !*++p)
            return 0; /* trailing dot */
    }
    return labels >= 2;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512], sub[256];
    int any = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (!zipu_under(e->name, "extra/") || !zipu_component(e->name, 1, sub, sizeof sub))
            continue;
        any = 1;
        const char *rest = e->name + strlen("extra/") + strlen(sub);
        if (*rest != '/' && !zipu_is_dir(e)) {
            fmuc_result_violation(res, "entry '%s': file directly in extra/; use a reverse-domain "
                                       "sub-folder such as extra/com.example.tool/",
                                  zipu_show(shown, sizeof shown, e->name));
            continue;
        }
        int first = 1;
        for (size_t j = 0; j < i && first; j++) {
            char other[256];
            if (zipu_under(l->entries[j].name, "extra/") &&
                zipu_component(l->entries[j].name, 1, other, sizeof other) && strcmp(other, sub) == 0)
                first = 0;
        }
        if (!first)
            continue;
        if (!reverse_domain(sub))
            fmuc_result_violation(res, "folder 'extra/%s/' is not named in reverse domain notation "
                                       "(e.g. com.example.tool)", zipu_show(shown, sizeof shown, sub));
        else if (strncmp(sub, "org.modelica", 12) == 0 || strncmp(sub, "org.fmi-standard", 16) == 0)
            fmuc_result_note(res, "folder 'extra/%s/' is reserved for MAP FMI layered standards",
                             zipu_show(shown, sizeof shown, sub));
    }
    if (!any)
        fmuc_result_na(res, "no extra/ folder");
}

const fmuc_check fmuc_check_zip_extra_reverse_domain = {
    .id = "zip-extra-reverse-domain",
    .title = "extra/ uses reverse-domain sub-folders",
    .spec = "FMI 2.0.4 §2.3.1; FMI 3.0.2 §2.5.1.6, §2.6",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Files directly in extra/ or in non-reverse-domain folders collide with other tools' "
           "and layered standards' files, so one tool reads another's data.",
    .fix = "Put extra files under a folder named by your reverse domain, e.g. "
           "extra/com.example.tool/, and keep out of org.modelica and org.fmi-standard.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};

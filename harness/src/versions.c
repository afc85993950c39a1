/* Versions of the libraries in use, for the report. */
#include <libxml/xmlversion.h>
#include <zip.h>

#include "fmuc/fmuc_err.h"




const char *fmuc_libzip_version(void)
{
    return zip_libzip_version();
}

const char *fmuc_libxml2_version(void)
{
    return LIBXML_DOTTED_VERSION;
}

/* api-sandbox--tcp: the api-sandbox fixture opening a TCP connection. */
#define SMD_SANDBOX_TCP 1
#include "../api-sandbox/model.c"

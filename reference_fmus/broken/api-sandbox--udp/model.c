/* api-sandbox--udp: the api-sandbox fixture sending a UDP DNS-style query. */
#define SMD_SANDBOX_UDP 1
#include "../api-sandbox/model.c"

/* Built with a C compiler against shardkit/c/shardkit.h and -lshardkit_c. */
#include <stdio.h>
#include <string.h>

#include "shardkit/c/shardkit.h"

int main(void) {
  shardkit_tensor_sharding* sharding = NULL;
  shardkit_status* status =
      shardkit_tensor_sharding_parse("<@mesh, [{\"x\"}]>", &sharding);
  if (status) {
    fprintf(stderr, "%s\n", shardkit_status_message(status));
    shardkit_status_destroy(status);
    return 1;
  }
  char* text = shardkit_tensor_sharding_to_string(sharding);
  int ok = strcmp(text, "#sdy.sharding<@mesh, [{\"x\"}]>") == 0;
  printf("C consumer of shardkit %s: %s\n", shardkit_version(), text);
  shardkit_string_free(text);
  shardkit_tensor_sharding_destroy(sharding);
  return ok ? 0 : 1;
}

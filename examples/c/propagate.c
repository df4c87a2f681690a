/* The C API end to end: read a module, propagate its shardings, print each
 * value's sharding and the module, and convert one sharding to GSPMD.
 * Exits non-zero when a result is not the expected one. */
#include <stdio.h>
#include <string.h>

#include "shardkit/c/shardkit.h"

static const char kModule[] =
    "sdy.mesh @mesh = <[\"data\"=4, \"model\"=2]>\n"
    "func.func @main(%x: tensor<32x64xf32> {sdy.sharding = "
    "#sdy.sharding<@mesh, [{\"data\"}, {}]>},\n"
    "                %w: tensor<64x128xf32> {sdy.sharding = "
    "#sdy.sharding<@mesh, [{}, {\"model\"}]>}) -> tensor<32x128xf32> {\n"
    "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :\n"
    "      (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>\n"
    "  %1 = stablehlo.tanh %0 : tensor<32x128xf32>\n"
    "  return %1 : tensor<32x128xf32>\n"
    "}\n";

/* Prints the message of a failed call and frees it; true if it failed. */
static int failed(shardkit_status* status) {
  if (!status) return 0;
  fprintf(stderr, "%s\n", shardkit_status_message(status));
  shardkit_status_destroy(status);
  return 1;
}

int main(void) {
  shardkit_module* module = NULL;
  if (failed(shardkit_module_parse(kModule, strlen(kModule), &module)))
    return 1;
  if (failed(shardkit_module_run_passes(module, "sdy-propagation-pipeline")))
    return 1;

  /* Every value and the sharding propagation gave it. */
  int ok = 1;
  size_t n = shardkit_module_num_values(module);
  for (size_t i = 0; i < n; ++i) {
    shardkit_tensor_sharding* sharding = NULL;
    if (failed(shardkit_module_value_sharding(module, i, &sharding))) return 1;
    char* text = sharding ? shardkit_tensor_sharding_to_string(sharding) : NULL;
    printf("@%s %s : %s  %s\n", shardkit_module_value_function(module, i),
           shardkit_module_value_name(module, i),
           shardkit_module_value_type(module, i), text ? text : "-");
    /* The tanh (%1) is sharded like the product: rows and columns. */
    if (strcmp(shardkit_module_value_name(module, i), "%1") == 0) {
      ok = text &&
           strcmp(text, "#sdy.sharding<@mesh, [{\"data\"}, {\"model\"}]>") == 0;
      shardkit_mesh* mesh = NULL;
      char* hlo = NULL;
      if (failed(shardkit_module_mesh(module, "mesh", &mesh)) ||
          failed(shardkit_tensor_sharding_to_hlo(sharding, mesh, &hlo)))
        return 1;
      printf("  as GSPMD: %s\n", hlo);
      ok = ok && strcmp(hlo, "{devices=[4,2]<=[8]}") == 0;
      shardkit_string_free(hlo);
      shardkit_mesh_destroy(mesh);
    }
    shardkit_string_free(text);
    shardkit_tensor_sharding_destroy(sharding);
  }

  char* printed = NULL;
  if (failed(shardkit_module_print(module, &printed))) return 1;
  fputs(printed, stdout);
  shardkit_string_free(printed);
  shardkit_module_destroy(module);
  return ok ? 0 : 1;
}

/* The C API's contract, compiled as C11: results, error statuses and their
 * messages, NULL arguments, and handles freed without leaks (run it under
 * the sanitizer build to check the last). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shardkit/c/shardkit.h"

static int failures = 0;

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

/* True (and frees it) if `status` is an error whose message contains
 * `part`. */
static int errorContains(shardkit_status* status, const char* part) {
  if (!status) return 0;
  int found = strstr(shardkit_status_message(status), part) != NULL;
  if (!found) fprintf(stderr, "message: %s\n", shardkit_status_message(status));
  shardkit_status_destroy(status);
  return found;
}

static int equalsAndFree(char* text, const char* expected) {
  int same = text && strcmp(text, expected) == 0;
  if (!same) fprintf(stderr, "got: %s\n", text ? text : "(null)");
  shardkit_string_free(text);
  return same;
}

static void testShardings(void) {
  shardkit_tensor_sharding* s = NULL;
  EXPECT(shardkit_tensor_sharding_parse("<@mesh, [{\"x\", \"y\":(1)2}, {?}]>",
                                        &s) == NULL);
  EXPECT(shardkit_tensor_sharding_rank(s) == 2);
  EXPECT(strcmp(shardkit_tensor_sharding_mesh_name(s), "mesh") == 0);
  EXPECT(equalsAndFree(shardkit_tensor_sharding_dim_axes(s, 0),
                       "\"x\", \"y\":(1)2"));
  EXPECT(equalsAndFree(shardkit_tensor_sharding_dim_axes(s, 1), ""));
  EXPECT(equalsAndFree(shardkit_tensor_sharding_dim_axes(s, 9), ""));
  EXPECT(shardkit_tensor_sharding_dim_is_closed(s, 0) == 1);
  EXPECT(shardkit_tensor_sharding_dim_is_closed(s, 1) == 0);
  EXPECT(equalsAndFree(shardkit_tensor_sharding_to_string(s),
                       "#sdy.sharding<@mesh, [{\"x\", \"y\":(1)2}, {?}]>"));

  shardkit_mesh* mesh = NULL;
  const char* names[] = {"x", "y"};
  int64_t sizes[] = {2, 4};
  EXPECT(shardkit_mesh_create(2, names, sizes, &mesh) == NULL);
  EXPECT(shardkit_mesh_num_axes(mesh) == 2);
  EXPECT(strcmp(shardkit_mesh_axis_name(mesh, 1), "y") == 0);
  EXPECT(shardkit_mesh_axis_size(mesh, 1) == 4);
  EXPECT(shardkit_mesh_axis_name(mesh, 2) == NULL);
  EXPECT(equalsAndFree(shardkit_mesh_to_string(mesh), "<[\"x\"=2, \"y\"=4]>"));

  int64_t good[] = {8, 4};
  int64_t odd[] = {7, 4};
  EXPECT(shardkit_tensor_sharding_verify(s, mesh, good, 2) == NULL);
  EXPECT(errorContains(shardkit_tensor_sharding_verify(s, mesh, odd, 2),
                       "divisible"));
  EXPECT(
      errorContains(shardkit_tensor_sharding_verify(s, mesh, good, 1), "rank"));

  char* hlo = NULL;
  EXPECT(shardkit_tensor_sharding_to_hlo(s, mesh, &hlo) == NULL);
  EXPECT(equalsAndFree(hlo, "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"));
  shardkit_tensor_sharding* back = NULL;
  EXPECT(shardkit_tensor_sharding_from_hlo(
             "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", mesh, "mesh", 2,
             &back) == NULL);
  EXPECT(equalsAndFree(shardkit_tensor_sharding_to_string(back),
                       "#sdy.sharding<@mesh, [{\"x\", \"y\":(1)2}, {}]>"));
  shardkit_tensor_sharding_destroy(back);
  back = NULL;
  EXPECT(errorContains(
      shardkit_tensor_sharding_from_hlo("{manual}", mesh, "mesh", 2, &back),
      "{manual}"));
  EXPECT(back == NULL);

  shardkit_mesh_destroy(mesh);
  shardkit_tensor_sharding_destroy(s);
}

static void testErrors(void) {
  shardkit_tensor_sharding* s = NULL;
  EXPECT(errorContains(shardkit_tensor_sharding_parse("<@mesh, [{\"x\"}", &s),
                       "expected"));
  EXPECT(s == NULL);
  EXPECT(errorContains(shardkit_tensor_sharding_parse(NULL, &s), "NULL"));
  shardkit_mesh* mesh = NULL;
  EXPECT(errorContains(shardkit_mesh_parse("<[\"x\"=2, \"x\"=2]>", &mesh),
                       "duplicate"));
  EXPECT(mesh == NULL);
  EXPECT(shardkit_mesh_parse("#sdy.mesh<[\"a\"=3]>", &mesh) == NULL);
  EXPECT(shardkit_mesh_axis_size(mesh, 0) == 3);
  shardkit_mesh_destroy(mesh);
  /* Destroying NULL handles is a no-op. */
  shardkit_mesh_destroy(NULL);
  shardkit_tensor_sharding_destroy(NULL);
  shardkit_module_destroy(NULL);
  shardkit_status_destroy(NULL);
  shardkit_string_free(NULL);
}

static void testModules(void) {
  const char* text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @main(%a: tensor<8x8xf32> {sdy.sharding = "
      "#sdy.sharding<@mesh, [{\"x\"}, {}]>}) -> tensor<8x8xf32> {\n"
      "  %0 = stablehlo.add %a, %a : tensor<8x8xf32>\n"
      "  return %0 : tensor<8x8xf32>\n"
      "}\n";
  shardkit_module* m = NULL;
  EXPECT(shardkit_module_parse(text, strlen(text), &m) == NULL);
  EXPECT(shardkit_module_num_values(m) == 2);
  shardkit_tensor_sharding* s = NULL;
  EXPECT(shardkit_module_value_sharding(m, 1, &s) == NULL);
  EXPECT(s == NULL); /* %0 has no sharding before propagation */
  EXPECT(errorContains(shardkit_module_run_passes(m, "sdy-no-such-pass"),
                       "unknown pass 'sdy-no-such-pass'"));
  EXPECT(errorContains(
      shardkit_module_run_passes(m, "sdy-basic-propagate{no-such-option=1}"),
      "has no option 'no-such-option'"));
  EXPECT(
      shardkit_module_run_passes(m,
                                 "sdy-add-data-flow-edges,sdy-basic-propagate{"
                                 "keep-sharding-rules=false}") == NULL);
  EXPECT(strcmp(shardkit_module_value_name(m, 1), "%0") == 0);
  EXPECT(strcmp(shardkit_module_value_type(m, 1), "tensor<8x8xf32>") == 0);
  EXPECT(strcmp(shardkit_module_value_function(m, 1), "main") == 0);
  EXPECT(shardkit_module_value_name(m, 99) == NULL);
  EXPECT(shardkit_module_value_sharding(m, 1, &s) == NULL);
  /* Basic propagation leaves the dimensions open. */
  EXPECT(equalsAndFree(shardkit_tensor_sharding_to_string(s),
                       "#sdy.sharding<@mesh, [{\"x\", ?}, {?}]>"));
  shardkit_tensor_sharding_destroy(s);
  EXPECT(errorContains(shardkit_module_value_sharding(m, 99, &s), "no value"));
  shardkit_mesh* mesh = NULL;
  EXPECT(errorContains(shardkit_module_mesh(m, "other", &mesh),
                       "no mesh named @other"));
  EXPECT(shardkit_module_mesh(m, "mesh", &mesh) == NULL);
  EXPECT(shardkit_mesh_axis_size(mesh, 0) == 2);
  shardkit_mesh_destroy(mesh);
  char* printed = NULL;
  EXPECT(shardkit_module_print(m, &printed) == NULL);
  EXPECT(printed && strstr(printed, "stablehlo.add") != NULL);
  shardkit_string_free(printed);
  shardkit_module_destroy(m);

  /* Bad text: the status carries FILE:LINE:COL: error: MESSAGE. */
  const char* bad = "func.func @f() {\n  %0 = stablehlo.add %x, %x\n}\n";
  m = NULL;
  EXPECT(errorContains(shardkit_module_parse(bad, strlen(bad), &m),
                       "<input>:2:22: error: use of undeclared SSA value"));
  EXPECT(m == NULL);
}

/* The deprecated names still work, as their replacements. */
static void testDeprecatedNames(void) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  shardkit_mesh* mesh = NULL;
  EXPECT(shardkit_parse_mesh("<[\"x\"=2]>", &mesh) == NULL);
  EXPECT(shardkit_mesh_axis_size(mesh, 0) == 2);
  shardkit_mesh_destroy(mesh);
  shardkit_tensor_sharding* s = NULL;
  EXPECT(shardkit_parse_tensor_sharding("<@mesh, [{\"x\"}]>", &s) == NULL);
  EXPECT(shardkit_tensor_sharding_rank(s) == 1);
  shardkit_tensor_sharding_destroy(s);
#pragma GCC diagnostic pop
}

/* Messages in the CLI's form (`error: ...`), printable (raw input bytes
 * escaped, so every binding decodes them as UTF-8) and bounded; inputs
 * checked before they are used. */
static void testCheckedInputs(void) {
  shardkit_mesh* mesh = NULL;
  EXPECT(errorContains(shardkit_mesh_parse("<[\"x\"=2, \xff]>", &mesh),
                       "error: "));
  shardkit_status* status = shardkit_mesh_parse("<[\"x\"=2, \xff]>", &mesh);
  EXPECT(status && strncmp(shardkit_status_message(status), "error: ", 7) == 0);
  EXPECT(status && strchr(shardkit_status_message(status), '\xff') == NULL);
  shardkit_status_destroy(status);

  /* A message quoting a megabyte of input is cut. */
  size_t big = 1 << 20;
  char* text = malloc(big + 8);
  memset(text, '\xe2', big);
  strcpy(text + big, "<[");
  status = shardkit_mesh_parse(text, &mesh);
  EXPECT(status && strlen(shardkit_status_message(status)) <= 4100);
  shardkit_status_destroy(status);
  free(text);

  const char* names[] = {"x"};
  int64_t sizes[] = {2};
  EXPECT(shardkit_mesh_create(1, names, sizes, &mesh) == NULL);
  shardkit_tensor_sharding* s = NULL;
  EXPECT(shardkit_tensor_sharding_parse("<@mesh, [{\"x\"}]>", &s) == NULL);
  int64_t negative[] = {-4};
  EXPECT(errorContains(shardkit_tensor_sharding_verify(s, mesh, negative, 1),
                       "error: dimension 0 has negative size -4"));
  shardkit_tensor_sharding* out = NULL;
  EXPECT(errorContains(shardkit_tensor_sharding_from_hlo(
                           "{replicated}", mesh, "mesh", (size_t)1 << 40, &out),
                       "error: rank 1099511627776 is above the limit"));
  EXPECT(out == NULL);
  shardkit_tensor_sharding_destroy(s);
  shardkit_mesh_destroy(mesh);
}

int main(void) {
  EXPECT(strcmp(shardkit_version(), "0.1.0") == 0);
  testShardings();
  testErrors();
  testModules();
  testDeprecatedNames();
  testCheckedInputs();
  if (failures) {
    fprintf(stderr, "%d failed\n", failures);
    return 1;
  }
  printf("c_api_test: ok\n");
  return 0;
}

/* shardkit's C API (C11): shardings, meshes and modules behind opaque
 * handles, for compilers not written in C++ and for Python's ctypes
 * (examples/python/shardkit.py). Link libshardkit_c (CMake: shardkit::c,
 * also part of shardkit::shardkit; pkg-config: -lshardkit_c).
 *
 * Conventions:
 * - A call that can fail returns NULL on success or a shardkit_status* that
 *   carries the message; free it with shardkit_status_destroy. Outputs are
 *   written only on success.
 * - No C++ exception crosses this interface: an unexpected failure (out of
 *   memory) is a status too.
 * - A returned char* is the caller's: free it with shardkit_string_free.
 *   A returned const char* belongs to the handle it came from and lives as
 *   long as that handle (and, for a module, until its next change).
 * - Threads: any number of threads may call the functions that take a
 *   const handle on one handle at once (a module's calls are serialized by
 *   a lock the handle holds). A call that changes a handle
 *   (shardkit_module_run_passes, *_destroy) must not overlap other calls on
 *   it: the const char* an accessor returned is invalid after it. Distinct
 *   handles may be used from distinct threads.
 * - Names read shardkit_<object>_<verb> (shardkit_mesh_parse). The two older
 *   names shardkit_parse_mesh and shardkit_parse_tensor_sharding remain as
 *   deprecated aliases for one release.
 */
#ifndef SHARDKIT_C_SHARDKIT_H_
#define SHARDKIT_C_SHARDKIT_H_

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define SHARDKIT_C_API __attribute__((visibility("default")))
#define SHARDKIT_C_DEPRECATED(replacement) \
  __attribute__((deprecated("use " replacement)))
#else
#define SHARDKIT_C_API
#define SHARDKIT_C_DEPRECATED(replacement)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct shardkit_status shardkit_status;
typedef struct shardkit_mesh shardkit_mesh;
typedef struct shardkit_tensor_sharding shardkit_tensor_sharding;
typedef struct shardkit_module shardkit_module;

/* "MAJOR.MINOR.PATCH" of the library. */
SHARDKIT_C_API const char* shardkit_version(void);

/* ---- Status and strings ------------------------------------------------ */

/* The error message: one or more lines `FILE:LINE:COL: error: MESSAGE`
 * (or `error: MESSAGE` when nothing locates it). */
SHARDKIT_C_API const char* shardkit_status_message(const shardkit_status*);
SHARDKIT_C_API void shardkit_status_destroy(shardkit_status*);
SHARDKIT_C_API void shardkit_string_free(char*);

/* ---- Meshes ------------------------------------------------------------ */

/* Reads `<["x"=2, "y"=4]>`, `#sdy.mesh<...>`, or with device ids
 * `<["x"=2], device_ids=[1, 0]>`; the mesh is verified. */
SHARDKIT_C_API shardkit_status* shardkit_mesh_parse(const char* text,
                                                    shardkit_mesh** out);
/* A mesh of `num_axes` axes, names[i] of size sizes[i], devices in order. */
SHARDKIT_C_API shardkit_status* shardkit_mesh_create(size_t num_axes,
                                                     const char* const* names,
                                                     const int64_t* sizes,
                                                     shardkit_mesh** out);
SHARDKIT_C_API size_t shardkit_mesh_num_axes(const shardkit_mesh*);
/* NULL when `axis` is out of range; the size is then 0. */
SHARDKIT_C_API const char* shardkit_mesh_axis_name(const shardkit_mesh*,
                                                   size_t axis);
SHARDKIT_C_API int64_t shardkit_mesh_axis_size(const shardkit_mesh*,
                                               size_t axis);
/* `<["x"=2, "y"=4]>`. */
SHARDKIT_C_API char* shardkit_mesh_to_string(const shardkit_mesh*);
SHARDKIT_C_API void shardkit_mesh_destroy(shardkit_mesh*);

/* ---- Tensor shardings -------------------------------------------------- */

/* Reads `#sdy.sharding<@mesh, [{"x"}, {}]>` or `<@mesh, [{"x"}, {}]>`
 * (syntax only: see shardkit_tensor_sharding_verify). */
SHARDKIT_C_API shardkit_status* shardkit_tensor_sharding_parse(
    const char* text, shardkit_tensor_sharding** out);
/* `#sdy.sharding<@mesh, [{"x"}, {}]>`. */
SHARDKIT_C_API char* shardkit_tensor_sharding_to_string(
    const shardkit_tensor_sharding*);
SHARDKIT_C_API void shardkit_tensor_sharding_destroy(shardkit_tensor_sharding*);
SHARDKIT_C_API size_t
shardkit_tensor_sharding_rank(const shardkit_tensor_sharding*);
/* The mesh name (`mesh` for `@mesh`), or "" for an inline mesh. */
SHARDKIT_C_API const char* shardkit_tensor_sharding_mesh_name(
    const shardkit_tensor_sharding*);
/* Dimension `dim`'s axes, major first, as `"x", "y":(2)2`; "" when none or
 * `dim` is out of range. */
SHARDKIT_C_API char* shardkit_tensor_sharding_dim_axes(
    const shardkit_tensor_sharding*, size_t dim);
/* 1 if dimension `dim` is closed, 0 if open (`?`) or out of range. */
SHARDKIT_C_API int shardkit_tensor_sharding_dim_is_closed(
    const shardkit_tensor_sharding*, size_t dim);
/* Checks the sharding for a tensor of shape `shape[rank]` on `mesh` (the
 * sharding's mesh name is not looked at): rank, axes known and used once,
 * sub-axes valid, and that each dimension's size divides evenly. */
SHARDKIT_C_API shardkit_status* shardkit_tensor_sharding_verify(
    const shardkit_tensor_sharding*, const shardkit_mesh* mesh,
    const int64_t* shape, size_t rank);

/* ---- GSPMD (XLA HloSharding text; docs/gspmd.md) ----------------------- */

/* The HloSharding of `sharding` on `mesh`: `{replicated}`,
 * `{devices=[2,1,2]<=[4] last_tile_dim_replicate}`, ... */
SHARDKIT_C_API shardkit_status* shardkit_tensor_sharding_to_hlo(
    const shardkit_tensor_sharding*, const shardkit_mesh* mesh, char** out);
/* The sharding of a rank-`rank` tensor that `hlo` describes, on `mesh`,
 * referring to it as `@mesh_name`; an error when the mesh cannot express
 * the tiling. */
SHARDKIT_C_API shardkit_status* shardkit_tensor_sharding_from_hlo(
    const char* hlo, const shardkit_mesh* mesh, const char* mesh_name,
    size_t rank, shardkit_tensor_sharding** out);

/* ---- Modules ----------------------------------------------------------- */

/* Reads and verifies sdy-annotated MLIR text (`len` bytes of `text`). */
SHARDKIT_C_API shardkit_status* shardkit_module_parse(const char* text,
                                                      size_t len,
                                                      shardkit_module** out);
/* Runs passes in order: "sdy-propagation-pipeline", or a comma list of
 * pass names, each optionally with options in braces:
 * "sdy-add-data-flow-edges,sdy-basic-propagate{keep-sharding-rules=true}".
 * The module is verified after each pass, as mlir-opt does. On failure the
 * module may be partly transformed. */
SHARDKIT_C_API shardkit_status* shardkit_module_run_passes(
    shardkit_module*, const char* pass_pipeline);
/* The module as MLIR text. */
SHARDKIT_C_API shardkit_status* shardkit_module_print(const shardkit_module*,
                                                      char** out);
/* The mesh `sdy.mesh @name` defines. */
SHARDKIT_C_API shardkit_status* shardkit_module_mesh(const shardkit_module*,
                                                     const char* name,
                                                     shardkit_mesh** out);
SHARDKIT_C_API void shardkit_module_destroy(shardkit_module*);

/* The module's values, numbered in printed order: for each function, its
 * arguments, then the results of the ops in its body (nested ones too).
 * The numbering changes when passes run. */
SHARDKIT_C_API size_t shardkit_module_num_values(const shardkit_module*);
/* The function the value is in (`main`), its printed name (`%arg0`, `%3`,
 * `%0#1`) and its type (`tensor<8x16xf32>`); NULL when out of range. */
SHARDKIT_C_API const char* shardkit_module_value_function(
    const shardkit_module*, size_t value);
SHARDKIT_C_API const char* shardkit_module_value_name(const shardkit_module*,
                                                      size_t value);
SHARDKIT_C_API const char* shardkit_module_value_type(const shardkit_module*,
                                                      size_t value);
/* The value's sharding; *out is NULL when it has none. */
SHARDKIT_C_API shardkit_status* shardkit_module_value_sharding(
    const shardkit_module*, size_t value, shardkit_tensor_sharding** out);

/* ---- Deprecated names ------------------------------------------------- */

SHARDKIT_C_API SHARDKIT_C_DEPRECATED("shardkit_mesh_parse")
    shardkit_status* shardkit_parse_mesh(const char* text, shardkit_mesh** out);
SHARDKIT_C_API SHARDKIT_C_DEPRECATED("shardkit_tensor_sharding_parse")
    shardkit_status* shardkit_parse_tensor_sharding(
        const char* text, shardkit_tensor_sharding** out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHARDKIT_C_SHARDKIT_H_ */

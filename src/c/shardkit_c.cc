// The C API (include/shardkit/c/shardkit.h) over the C++ library. Every entry
// point catches whatever the C++ side throws (only std::bad_alloc in
// practice) and turns it into a status: no exception crosses into C.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/c/shardkit.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/core/verify_sharding.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/mpmd/dialect.h"
#include "shardkit/partition/passes.h"
#include "shardkit/passes/pipeline.h"
#include "shardkit/support/strings.h"
#include "shardkit/support/utf8.h"
#include "shardkit/text/hlo_sharding.h"
#include "shardkit/text/parse.h"
#include "shardkit/version.h"

struct shardkit_status {
  std::string message;
};

struct shardkit_mesh {
  shardkit::Mesh mesh;
};

struct shardkit_tensor_sharding {
  shardkit::TensorSharding sharding;
  std::string mesh_name;  // backs shardkit_tensor_sharding_mesh_name
};

struct shardkit_module {
  // One value of shardkit_module_num_values' numbering.
  struct ValueEntry {
    shardkit::Value value;
    std::string function, name, type;
  };
  std::unique_ptr<shardkit::Module> module;
  // Serializes every call on the handle: the "const" accessors fill the
  // value table and the module's own lazy tables (printed names), so
  // several threads reading one module would race without it.
  mutable std::mutex mutex;
  std::vector<ValueEntry> values;  // guarded by mutex
  bool values_current = false;     // guarded by mutex
};

namespace {

using namespace shardkit;

// Returned when even a status cannot be allocated; never freed.
shardkit_status kOutOfMemory{"error: out of memory"};

shardkit_status* makeStatus(std::string message) {
  try {
    return new shardkit_status{std::move(message)};
  } catch (...) {
    return &kOutOfMemory;
  }
}

// Longer messages are cut (at a UTF-8 boundary): a message may quote the
// input, which may be megabytes.
constexpr size_t kMaxMessageBytes = 4096;

// A status's message in the CLI's form: `LINE:COL: error: ...` lines for
// diagnostics, `error: ...` otherwise; each line printable (control bytes
// and invalid UTF-8 as `\XX`), so it decodes as UTF-8 in every binding.
std::string messageOf(const absl::Status& status) {
  std::string_view raw = fromAbsl(status.message());
  std::string text = hasDiagnostics(status) ? "" : "error: ";
  for (size_t start = 0; start <= raw.size();) {
    size_t end = std::min(raw.find('\n', start), raw.size());
    if (start > 0) text += '\n';
    text += printableText(raw.substr(start, end - start));
    start = end + 1;
  }
  if (text.size() > kMaxMessageBytes) {
    text = std::string(utf8Prefix(text, kMaxMessageBytes)) + "...";
  }
  return text;
}

shardkit_status* fromStatus(const absl::Status& status) {
  if (status.ok()) return nullptr;
  return makeStatus(messageOf(status));
}

shardkit_status* nullArgument(const char* what) {
  return makeStatus(strCat("error: ", what, " is NULL"));
}

// Ranks above this are refused before anything is allocated for them (a
// rank from C is a size_t the caller may have got wrong).
constexpr size_t kMaxRank = 1 << 16;

shardkit_status* tooManyDimensions(size_t rank) {
  return makeStatus(strCat("error: rank ", rank, " is above the limit of ",
                           kMaxRank, " dimensions"));
}

// Runs `fn` (returning shardkit_status*), turning exceptions into statuses.
template <typename Fn>
shardkit_status* guarded(Fn&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return makeStatus("error: out of memory");
  } catch (const std::exception& e) {
    return makeStatus(strCat("error: internal error: ", e.what()));
  } catch (...) {
    return makeStatus("error: internal error");
  }
}

// A malloc'ed copy of `text` (freed with shardkit_string_free), or NULL.
char* copyString(std::string_view text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

// Numbers the module's values as the header describes. Requires m->mutex.
void refreshValues(shardkit_module* m) {
  if (m->values_current) return;
  m->values.clear();
  for (Op fn : m->module->functions()) {
    FuncOp func(fn);
    std::string name(func.name());
    auto add = [&](Value v) {
      m->values.push_back({v, name, printedName(v), v.type().str()});
    };
    for (Value arg : func.body().arguments()) add(arg);
    auto addResults = [&](Op op) {
      for (Value result : op.results()) add(result);
    };
    Module::walkBlock(func.body(), addResults);
  }
  m->values_current = true;
}

const shardkit_module::ValueEntry* valueAt(const shardkit_module* m,
                                           size_t index) {
  if (m == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(m->mutex);
  try {
    refreshValues(const_cast<shardkit_module*>(m));
  } catch (...) {
    return nullptr;
  }
  return index < m->values.size() ? &m->values[index] : nullptr;
}

}  // namespace

extern "C" {

const char* shardkit_version(void) { return SHARDKIT_VERSION_STRING; }

const char* shardkit_status_message(const shardkit_status* status) {
  return status ? status->message.c_str() : "";
}

void shardkit_status_destroy(shardkit_status* status) {
  if (status != &kOutOfMemory) delete status;
}

void shardkit_string_free(char* text) { std::free(text); }

// ---- Meshes ----------------------------------------------------------------

shardkit_status* shardkit_mesh_parse(const char* text, shardkit_mesh** out) {
  if (!text) return nullArgument("text");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    absl::StatusOr<Mesh> mesh = parseMesh(text);
    if (!mesh.ok()) return fromStatus(mesh.status());
    if (absl::Status s = verifyMesh(*mesh); !s.ok()) return fromStatus(s);
    *out = new shardkit_mesh{*std::move(mesh)};
    return nullptr;
  });
}

shardkit_status* shardkit_mesh_create(size_t num_axes, const char* const* names,
                                      const int64_t* sizes,
                                      shardkit_mesh** out) {
  if (num_axes > 0 && (!names || !sizes)) return nullArgument("names/sizes");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    std::vector<MeshAxis> axes;
    for (size_t i = 0; i < num_axes; ++i) {
      if (!names[i]) return nullArgument("an axis name");
      axes.push_back(MeshAxis{names[i], sizes[i]});
    }
    Mesh mesh(std::move(axes));
    if (absl::Status s = verifyMesh(mesh); !s.ok()) return fromStatus(s);
    *out = new shardkit_mesh{std::move(mesh)};
    return nullptr;
  });
}

size_t shardkit_mesh_num_axes(const shardkit_mesh* mesh) {
  return mesh ? mesh->mesh.axes.size() : 0;
}

const char* shardkit_mesh_axis_name(const shardkit_mesh* mesh, size_t axis) {
  if (!mesh || axis >= mesh->mesh.axes.size()) return nullptr;
  return mesh->mesh.axes[axis].name.c_str();
}

int64_t shardkit_mesh_axis_size(const shardkit_mesh* mesh, size_t axis) {
  if (!mesh || axis >= mesh->mesh.axes.size()) return 0;
  return mesh->mesh.axes[axis].size;
}

char* shardkit_mesh_to_string(const shardkit_mesh* mesh) {
  if (!mesh) return nullptr;
  try {
    return copyString(toString(mesh->mesh));
  } catch (...) {
    return nullptr;
  }
}

void shardkit_mesh_destroy(shardkit_mesh* mesh) { delete mesh; }

// ---- Tensor shardings ------------------------------------------------------

shardkit_status* shardkit_tensor_sharding_parse(
    const char* text, shardkit_tensor_sharding** out) {
  if (!text) return nullArgument("text");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    absl::StatusOr<TensorSharding> sharding = parseTensorSharding(text);
    if (!sharding.ok()) return fromStatus(sharding.status());
    std::string name(sharding->mesh.name());
    *out = new shardkit_tensor_sharding{*std::move(sharding), std::move(name)};
    return nullptr;
  });
}

char* shardkit_tensor_sharding_to_string(
    const shardkit_tensor_sharding* sharding) {
  if (!sharding) return nullptr;
  try {
    return copyString(toAttrString(sharding->sharding));
  } catch (...) {
    return nullptr;
  }
}

void shardkit_tensor_sharding_destroy(shardkit_tensor_sharding* sharding) {
  delete sharding;
}

size_t shardkit_tensor_sharding_rank(const shardkit_tensor_sharding* sharding) {
  return sharding ? sharding->sharding.dim_shardings.size() : 0;
}

const char* shardkit_tensor_sharding_mesh_name(
    const shardkit_tensor_sharding* sharding) {
  return sharding ? sharding->mesh_name.c_str() : "";
}

char* shardkit_tensor_sharding_dim_axes(
    const shardkit_tensor_sharding* sharding, size_t dim) {
  if (!sharding) return nullptr;
  try {
    std::string out;
    const auto& dims = sharding->sharding.dim_shardings;
    if (dim < dims.size()) {
      for (size_t i = 0; i < dims[dim].axes.size(); ++i) {
        if (i) out += ", ";
        out += toString(dims[dim].axes[i]);
      }
    }
    return copyString(out);
  } catch (...) {
    return nullptr;
  }
}

int shardkit_tensor_sharding_dim_is_closed(
    const shardkit_tensor_sharding* sharding, size_t dim) {
  if (!sharding || dim >= sharding->sharding.dim_shardings.size()) return 0;
  return sharding->sharding.dim_shardings[dim].is_closed ? 1 : 0;
}

shardkit_status* shardkit_tensor_sharding_verify(
    const shardkit_tensor_sharding* sharding, const shardkit_mesh* mesh,
    const int64_t* shape, size_t rank) {
  if (!sharding) return nullArgument("sharding");
  if (!mesh) return nullArgument("mesh");
  if (rank > 0 && !shape) return nullArgument("shape");
  if (rank > kMaxRank) return tooManyDimensions(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) {
      return makeStatus(
          strCat("error: dimension ", i, " has negative size ", shape[i]));
    }
  }
  return guarded([&]() -> shardkit_status* {
    std::vector<int64_t> dims(shape, shape + rank);
    ShardingVerifyOptions options;
    options.check_divisibility = true;
    return fromStatus(verifyTensorShardingWithMesh(sharding->sharding,
                                                   mesh->mesh, dims, options));
  });
}

// ---- GSPMD -----------------------------------------------------------------

shardkit_status* shardkit_tensor_sharding_to_hlo(
    const shardkit_tensor_sharding* sharding, const shardkit_mesh* mesh,
    char** out) {
  if (!sharding) return nullArgument("sharding");
  if (!mesh) return nullArgument("mesh");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    absl::StatusOr<HloSharding> hlo =
        toHloSharding(sharding->sharding, mesh->mesh);
    if (!hlo.ok()) return fromStatus(hlo.status());
    char* text = copyString(toString(*hlo));
    if (!text) throw std::bad_alloc();
    *out = text;
    return nullptr;
  });
}

shardkit_status* shardkit_tensor_sharding_from_hlo(
    const char* hlo, const shardkit_mesh* mesh, const char* mesh_name,
    size_t rank, shardkit_tensor_sharding** out) {
  if (!hlo) return nullArgument("hlo");
  if (!mesh) return nullArgument("mesh");
  if (!mesh_name) return nullArgument("mesh_name");
  if (!out) return nullArgument("out");
  if (rank > kMaxRank) return tooManyDimensions(rank);
  return guarded([&]() -> shardkit_status* {
    absl::StatusOr<HloSharding> parsed = parseHloSharding(hlo);
    if (!parsed.ok()) return fromStatus(parsed.status());
    absl::StatusOr<TensorSharding> sharding =
        fromHloSharding(*parsed, mesh->mesh, MeshOrRef::ref(mesh_name),
                        static_cast<int64_t>(rank));
    if (!sharding.ok()) return fromStatus(sharding.status());
    std::string name(sharding->mesh.name());
    *out = new shardkit_tensor_sharding{*std::move(sharding), std::move(name)};
    return nullptr;
  });
}

// ---- Modules ---------------------------------------------------------------

shardkit_status* shardkit_module_parse(const char* text, size_t len,
                                       shardkit_module** out) {
  if (!text && len > 0) return nullArgument("text");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    registerMpmdDialect();
    registerPartitionPasses();
    absl::StatusOr<std::unique_ptr<Module>> module =
        parseModule(std::string(text ? text : "", len), "<input>");
    if (!module.ok()) return fromStatus(module.status());
    auto handle = std::make_unique<shardkit_module>();
    handle->module = *std::move(module);
    *out = handle.release();
    return nullptr;
  });
}

shardkit_status* shardkit_module_run_passes(shardkit_module* module,
                                            const char* pass_pipeline) {
  if (!module) return nullArgument("module");
  if (!pass_pipeline) return nullArgument("pass_pipeline");
  return guarded([&]() -> shardkit_status* {
    std::lock_guard<std::mutex> lock(module->mutex);
    module->values_current = false;
    return fromStatus(runPassPipeline(*module->module, pass_pipeline));
  });
}

shardkit_status* shardkit_module_print(const shardkit_module* module,
                                       char** out) {
  if (!module) return nullArgument("module");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    std::lock_guard<std::mutex> lock(module->mutex);
    char* text = copyString(printModule(*module->module));
    if (!text) throw std::bad_alloc();
    *out = text;
    return nullptr;
  });
}

shardkit_status* shardkit_module_mesh(const shardkit_module* module,
                                      const char* name, shardkit_mesh** out) {
  if (!module) return nullArgument("module");
  if (!name) return nullArgument("name");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    std::lock_guard<std::mutex> lock(module->mutex);
    MeshTable meshes = module->module->meshTable();
    const Mesh* mesh = meshes.find(name);
    if (!mesh) return makeStatus(strCat("error: no mesh named @", name));
    *out = new shardkit_mesh{*mesh};
    return nullptr;
  });
}

void shardkit_module_destroy(shardkit_module* module) { delete module; }

size_t shardkit_module_num_values(const shardkit_module* module) {
  if (!module) return 0;
  std::lock_guard<std::mutex> lock(module->mutex);
  try {
    refreshValues(const_cast<shardkit_module*>(module));
    return module->values.size();
  } catch (...) {
    return 0;
  }
}

const char* shardkit_module_value_function(const shardkit_module* module,
                                           size_t value) {
  const auto* entry = valueAt(module, value);
  return entry ? entry->function.c_str() : nullptr;
}

const char* shardkit_module_value_name(const shardkit_module* module,
                                       size_t value) {
  const auto* entry = valueAt(module, value);
  return entry ? entry->name.c_str() : nullptr;
}

const char* shardkit_module_value_type(const shardkit_module* module,
                                       size_t value) {
  const auto* entry = valueAt(module, value);
  return entry ? entry->type.c_str() : nullptr;
}

shardkit_status* shardkit_module_value_sharding(
    const shardkit_module* module, size_t value,
    shardkit_tensor_sharding** out) {
  if (!module) return nullArgument("module");
  if (!out) return nullArgument("out");
  return guarded([&]() -> shardkit_status* {
    const auto* entry = valueAt(module, value);
    std::lock_guard<std::mutex> lock(module->mutex);
    if (!entry)
      return makeStatus(strCat("error: no value ", value, " (the module has ",
                               module->values.size(), ")"));
    std::optional<TensorSharding> sharding = getSharding(entry->value);
    if (!sharding) {
      *out = nullptr;
      return nullptr;
    }
    std::string name(sharding->mesh.name());
    *out = new shardkit_tensor_sharding{*std::move(sharding), std::move(name)};
    return nullptr;
  });
}

// The deprecated names, kept for one release.
shardkit_status* shardkit_parse_mesh(const char* text, shardkit_mesh** out) {
  return shardkit_mesh_parse(text, out);
}

shardkit_status* shardkit_parse_tensor_sharding(
    const char* text, shardkit_tensor_sharding** out) {
  return shardkit_tensor_sharding_parse(text, out);
}

}  // extern "C"

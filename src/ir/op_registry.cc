// The op kinds shardkit knows: their inherent attributes and traits.
#include <initializer_list>
#include <string>
#include <string_view>

#include "shardkit/ir/op_name.h"

namespace shardkit {

OpName registerBuiltinOpInfo(std::string_view name, OpInfo info);

namespace {

struct Entry {
  std::string_view name;
  std::initializer_list<std::string_view> inherent;
  bool terminator = false;
  bool isolated = false;
};

void registerAll(std::initializer_list<Entry> entries) {
  for (const Entry& e : entries) {
    OpInfo info;
    for (std::string_view a : e.inherent) info.inherent_attrs.emplace_back(a);
    info.is_terminator = e.terminator;
    info.isolated_from_above = e.isolated;
    registerBuiltinOpInfo(e.name, std::move(info));
  }
}

void registerSdyOps() {
  registerAll({
      {"sdy.mesh", {"sym_name", "mesh"}},
      {"sdy.sharding_constraint", {"sharding"}},
      {"sdy.reshard", {"sharding"}},
      {"sdy.sharding_group", {"group_id"}},
      {"sdy.propagation_barrier", {"allowed_direction"}},
      {"sdy.manual_computation",
       {"in_shardings", "out_shardings", "manual_axes"},
       false,
       true},
      {"sdy.named_computation",
       {"name", "in_shardings", "out_shardings"},
       false,
       true},
      {"sdy.data_flow_edge", {"sharding"}},
      {"sdy.constant", {"value"}},
      {"sdy.return", {}, true},
      {"sdy.all_gather", {"gathering_axes", "out_sharding"}},
      {"sdy.all_slice", {"slicing_axes", "out_sharding"}},
      {"sdy.all_reduce", {"reduction_axes", "out_sharding", "reduction"}},
      {"sdy.reduce_scatter",
       {"reduce_scatter_axes", "out_sharding", "reduction"}},
      {"sdy.all_to_all", {"params", "out_sharding"}},
      {"sdy.collective_permute", {"out_sharding"}},
      {"sdy.sharded_to_unreduced", {"axes", "out_sharding"}},
      {"sdy.replicated_to_unreduced", {"axes", "out_sharding"}},
  });
}

void registerFuncOps() {
  registerAll({
      {"func.func",
       {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs",
        "no_inline"},
       false,
       true},
      {"func.return", {}, true},
      {"func.call", {"callee", "arg_attrs", "res_attrs", "no_inline"}},
  });
}

}  // namespace

void registerStablehloOps();  // stablehlo_registry.cc

void registerBuiltinOps() {
  registerSdyOps();
  registerFuncOps();
  registerStablehloOps();
}

}  // namespace shardkit

// The binding functions of the extension, one per concept file.
#ifndef SHARDKIT_PYTHON_EXT_BINDINGS_H_
#define SHARDKIT_PYTHON_EXT_BINDINGS_H_

#include <nanobind/nanobind.h>

namespace shardkit::python {

void bindMesh(nanobind::module_& m);            // ext_mesh.cc
void bindTensorSharding(nanobind::module_& m);  // ext_sharding.cc
void bindAttributes(nanobind::module_& m);      // ext_attributes.cc
void bindModule(nanobind::module_& m);          // ext_module.cc

}  // namespace shardkit::python

#endif  // SHARDKIT_PYTHON_EXT_BINDINGS_H_

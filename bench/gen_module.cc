// gen_module OPS [--generic|--generic16]: prints a transformer-like module
// of about OPS ops (bench/workloads/transformer.h) as MLIR text, in MLIR's
// generic op form with --generic (what mlir-opt can read without the
// StableHLO dialect), and without `<{...}>` properties with --generic16 (what
// mlir-opt-16 reads).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/workloads/transformer.h"
#include "shardkit/asm/module_io.h"

using namespace shardkit;

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: gen_module OPS [--generic|--generic16]\n");
    return 2;
  }
  bench::TransformerShape shape;
  shape.layers = bench::layersForOps(std::atoll(argv[1]));
  std::unique_ptr<Module> module = bench::buildTransformer(shape);
  PrintOptions options;
  std::string flag = argc == 3 ? argv[2] : "";
  options.generic = flag == "--generic" || flag == "--generic16";
  options.inherent_in_attr_dict = flag == "--generic16";
  std::string text = printModule(*module, options);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

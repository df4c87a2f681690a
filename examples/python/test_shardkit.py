"""Tests of the ctypes module (run by ctest with SHARDKIT_LIBRARY set)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shardkit  # noqa: E402

MODULE = """
sdy.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<32x128xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :
      (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  return %0 : tensor<32x128xf32>
}
"""


class ShardingTest(unittest.TestCase):

    def test_parse_print_and_read(self):
        s = shardkit.TensorSharding.parse('<@mesh, [{"x", "y":(1)2}, {?}]>')
        self.assertEqual(str(s),
                         '#sdy.sharding<@mesh, [{"x", "y":(1)2}, {?}]>')
        self.assertEqual(s.rank, 2)
        self.assertEqual(s.mesh_name, "mesh")
        self.assertEqual(s.dim_axes(0), ['"x"', '"y":(1)2'])
        self.assertEqual(s.dim_axes(1), [])
        self.assertTrue(s.dim_is_closed(0))
        self.assertFalse(s.dim_is_closed(1))

    def test_errors_raise_with_the_message(self):
        with self.assertRaisesRegex(shardkit.Error, "expected"):
            shardkit.TensorSharding.parse('<@mesh, [{"x"}')
        mesh = shardkit.Mesh({"x": 2})
        s = shardkit.TensorSharding.parse('<@mesh, [{"x"}]>')
        s.verify(mesh, [8])
        with self.assertRaisesRegex(shardkit.Error, "divisible"):
            s.verify(mesh, [7])

    def test_meshes(self):
        mesh = shardkit.Mesh({"data": 4, "model": 2})
        self.assertEqual(mesh.axes, {"data": 4, "model": 2})
        self.assertEqual(str(mesh), '<["data"=4, "model"=2]>')
        self.assertEqual(shardkit.Mesh.parse('<["a"=3]>').axes, {"a": 3})

    def test_gspmd_round_trip(self):
        mesh = shardkit.Mesh({"data": 4, "model": 2})
        s = shardkit.TensorSharding.parse('<@mesh, [{"model"}, {"data"}]>')
        hlo = s.to_hlo(mesh)
        self.assertEqual(hlo, "{devices=[2,4]<=[4,2]T(1,0)}")
        back = shardkit.TensorSharding.from_hlo(hlo, mesh, "mesh", 2)
        self.assertEqual(back, s)
        with self.assertRaisesRegex(shardkit.Error, "rank 3"):
            shardkit.TensorSharding.from_hlo(hlo, mesh, "mesh", 3)

    def test_module_propagation(self):
        m = shardkit.Module.parse(MODULE)
        m.run_passes("sdy-propagation-pipeline")
        values = {v.name: v for v in m.values()}
        self.assertEqual(sorted(values), ["%0", "%arg0", "%arg1"])
        self.assertEqual(values["%0"].type, "tensor<32x128xf32>")
        self.assertEqual(str(values["%0"].sharding),
                         '#sdy.sharding<@mesh, [{"data"}, {"model"}]>')
        self.assertEqual(m.mesh("mesh").axes, {"data": 4, "model": 2})
        self.assertIn("stablehlo.dot_general", str(m))
        with self.assertRaisesRegex(shardkit.Error, "unknown pass"):
            m.run_passes("sdy-bogus")

    def test_inputs_are_checked_before_the_call(self):
        mesh = shardkit.Mesh({"x": 2})
        s = shardkit.TensorSharding.parse('<@mesh, [{"x"}]>')
        with self.assertRaisesRegex(shardkit.Error, "does not fit in 64 bits"):
            s.verify(mesh, [2**64 + 2])
        with self.assertRaisesRegex(shardkit.Error, "negative size"):
            s.verify(mesh, [-2])
        with self.assertRaisesRegex(shardkit.Error, "does not fit in 64 bits"):
            shardkit.Mesh({"x": 2**64 + 2})
        with self.assertRaisesRegex(shardkit.Error, "NUL"):
            shardkit.Mesh.parse('<["x"=2]>\0junk')
        with self.assertRaisesRegex(shardkit.Error, "out of range"):
            shardkit.TensorSharding.from_hlo("{replicated}", mesh, "mesh", -1)

    def test_messages_are_errors_in_the_cli_form(self):
        with self.assertRaisesRegex(shardkit.Error, "^error: "):
            shardkit.Mesh.parse('<["x"=2, \u00ff]>')
        with self.assertRaisesRegex(shardkit.Error, r"^<input>:1:\d+: error: "):
            shardkit.Module.parse("func.func @f(\u00ff")

    def test_threads_read_one_module(self):
        import threading
        m = shardkit.Module.parse(MODULE)
        seen = []

        def read():
            seen.append([(v.name, v.type, str(v.sharding)) for v in m.values()])

        threads = [threading.Thread(target=read) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(seen), 8)
        self.assertTrue(all(s == seen[0] for s in seen))

    def test_version(self):
        self.assertRegex(shardkit.version(), r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()

"""pytest setup of the Python package's tests: 8 host devices for JAX
(before anything imports it), and markers for the optional parts."""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

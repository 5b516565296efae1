"""real/harness's library: the real-kernel harness (real/README.md)."""

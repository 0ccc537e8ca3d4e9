// Benchmark only (sqrtdk_bench_native): the scalar kernel family compiled a second time, with the
// compiler's auto-vectoriser ON for this CPU (-O3 -march=native, see CMakeLists.txt), into its own
// namespace sqrtdk_autovec so it can sit beside the real (non-vectorised) sqrtdk:: family.
// Same source, same -ffp-contract=off (no FMA), so whatever it computes rounds like the scalar
// kernels; how much the compiler manages to vectorise (the m-p-n loop of P·V, the exp loop) is
// what this number shows. Nothing here is part of the library.
#define sqrtdk sqrtdk_autovec
#include "kernels_scalar.cpp"  // NOLINT(bugprone-suspicious-include)
#undef sqrtdk

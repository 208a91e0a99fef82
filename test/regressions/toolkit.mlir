// The CUDA toolkit is the one configured (--cuda-path, else CUDA_HOME, else
// the build's default), never a ptxas found on PATH instead; a missing one
// is an error naming it and where the choice came from. A kernel calling
// libdevice without one used to get PTX with unresolved `.extern .func
// __nv_sinf` declarations, which fail only when loaded.
// RUN: not tile-translate --tile-to-cubin --cuda-path=%t.missing %S/chips.mlir -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: env CUDA_HOME=%t.missing not tile-translate --tile-to-cubin %S/chips.mlir -o %t.cubin 2>&1 | FileCheck %s --check-prefix=HOME
// RUN: not tile-translate --tile-to-ptx --cuda-path=%t.missing %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// A PTX without libdevice calls needs no toolkit.
// RUN: tile-translate --tile-to-ptx --cuda-path=%t.missing %S/chips.mlir | FileCheck %s --check-prefix=NOMATH

// PTXAS: error: ptxas not found: {{.*}}.missing/bin/ptxas does not exist or is not executable (the CUDA toolkit {{.*}}.missing comes from --cuda-path; set CUDA_HOME or --cuda-path to a CUDA toolkit)
// HOME: (the CUDA toolkit {{.*}}.missing comes from CUDA_HOME;
// LIBDEVICE: toolkit.mlir:[[@LINE+4]]:8: error: the kernels call the libdevice function '__nv_sinf', but {{.*}}.missing/nvvm/libdevice/libdevice.10.bc does not exist
// NOMATH: .visible .entry scale(
func.func @sine(%p: !tile.ptr<f32>) {
  %v = tile.load %p : !tile.ptr<f32>
  %s = math.sin %v : f32
  tile.store %p, %s : !tile.ptr<f32>
  return
}

/*===- tile-capi-test.c - a C client of libTileCAPI.so ---------------------===*\
|*                                                                            *|
|*   tile-capi-test kernel.mlir                                               *|
|*                                                                            *|
|* Uses only the installed C headers (tile-c/, mlir-c/) and libTileCAPI.so:   *|
|*  1. builds and inspects !tile.block and !tile.ptr types;                   *|
|*  2. parses the kernel, runs the tile-to-nvvm pipeline and upstream         *|
|*     serialization through the MLIR C API, and prints the PTX;              *|
|*  3. compiles the kernel again with the one-call tileCompile;               *|
|*  4. gets diagnostics, not a crash, for bad input from both routes, bad     *|
|*     options (chips, warps), null and wrong-kind handles.                   *|
|* Exits 0 when every check holds; each failure is one "FAIL:" line.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Compile.h"
#include "tile-c/Dialect.h"
#include "tile-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* Text collected from MLIR's print and diagnostic callbacks. */
typedef struct {
  char data[1 << 16];
  size_t size;
} Text;

static void appendText(MlirStringRef piece, void *userData) {
  Text *text = (Text *)userData;
  size_t room = sizeof(text->data) - 1 - text->size;
  size_t n = piece.length < room ? piece.length : room;
  memcpy(text->data + text->size, piece.data, n);
  text->size += n;
  text->data[text->size] = '\0';
}

static MlirLogicalResult collectDiagnostic(MlirDiagnostic diagnostic,
                                           void *userData) {
  appendText(mlirStringRefCreateFromCString("diagnostic: "), userData);
  mlirDiagnosticPrint(diagnostic, appendText, userData);
  appendText(mlirStringRefCreateFromCString("\n"), userData);
  return mlirLogicalResultSuccess(); /* handled: MLIR prints nothing */
}

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc((size_t)length + 1);
  *size = fread(data, 1, (size_t)length, file);
  data[*size] = '\0';
  fclose(file);
  return data;
}

static void checkTypes(MlirContext ctx) {
  MlirType f32 = mlirF32TypeGet(ctx);
  int64_t shape[] = {16, 32};
  MlirType block = tileBlockTypeGet(ctx, 2, shape, f32);
  CHECK(!mlirTypeIsNull(block));
  CHECK(tileTypeIsABlock(block) && !tileTypeIsAPtr(block));
  CHECK(tileBlockTypeGetRank(block) == 2);
  CHECK(tileBlockTypeGetDimSize(block, 0) == 16);
  CHECK(tileBlockTypeGetDimSize(block, 1) == 32);
  CHECK(mlirTypeEqual(tileBlockTypeGetElementType(block), f32));
  CHECK(mlirAttributeIsNull(tileBlockTypeGetEncoding(block)));
  CHECK(mlirTypeEqual(block, mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(
                                                       "!tile.block<16x32xf32>"))));

  MlirType ptr = tilePtrTypeGet(f32);
  CHECK(tileTypeIsAPtr(ptr) && !tileTypeIsABlock(ptr));
  CHECK(mlirTypeEqual(tilePtrTypeGetPointeeType(ptr), f32));
  int64_t extent[] = {128};
  MlirType pointers = tileBlockTypeGet(ctx, 1, extent, ptr);
  CHECK(mlirTypeEqual(pointers, mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(
                                                          "!tile.block<128x!tile.ptr<f32>>"))));
  CHECK(!tileTypeIsABlock(f32) && !tileTypeIsAPtr(f32));
}

/* Bad arguments are diagnostics and null types, never an abort. */
static void checkTypeDiagnostics(MlirContext ctx) {
  Text diagnostics = {.size = 0};
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, collectDiagnostic, &diagnostics, NULL);
  int64_t badShape[] = {16, 0};
  MlirType bad = tileBlockTypeGet(ctx, 2, badShape, mlirF32TypeGet(ctx));
  CHECK(mlirTypeIsNull(bad));
  MlirType badPtr = tilePtrTypeGet(mlirIndexTypeGet(ctx));
  CHECK(mlirTypeIsNull(badPtr));
  mlirContextDetachDiagnosticHandler(ctx, handler);
  CHECK(strstr(diagnostics.data, "diagnostic: ") != NULL);
  printf("type diagnostics:\n%s", diagnostics.data);
}

/* Null and wrong-kind handles: null results or -1, never a crash. */
static void checkInvalidHandles(MlirContext ctx) {
  MlirType none = {NULL};
  MlirType f32 = mlirF32TypeGet(ctx);
  Text diagnostics = {.size = 0};
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, collectDiagnostic, &diagnostics, NULL);
  CHECK(mlirTypeIsNull(tilePtrTypeGet(none)));
  CHECK(mlirTypeIsNull(tilePtrTypeGetChecked(mlirLocationUnknownGet(ctx), none)));
  CHECK(mlirTypeIsNull(tilePtrTypeGetChecked((MlirLocation){NULL}, f32)));
  CHECK(mlirTypeIsNull(tilePtrTypeGetPointeeType(none)));
  CHECK(mlirTypeIsNull(tilePtrTypeGetPointeeType(f32)));
  int64_t shape[] = {4};
  CHECK(mlirTypeIsNull(tileBlockTypeGet((MlirContext){NULL}, 1, shape, f32)));
  CHECK(mlirTypeIsNull(tileBlockTypeGet(ctx, 1, shape, none)));
  CHECK(mlirTypeIsNull(tileBlockTypeGet(ctx, 1, NULL, f32)));
  CHECK(mlirTypeIsNull(tileBlockTypeGet(ctx, -3, shape, f32)));
  int64_t tooMany[] = {65536, 65536};
  CHECK(mlirTypeIsNull(tileBlockTypeGet(ctx, 2, tooMany, f32)));
  CHECK(mlirTypeIsNull(
      tileBlockTypeGetChecked((MlirLocation){NULL}, 1, shape, f32)));
  CHECK(!tileTypeIsABlock(none) && !tileTypeIsAPtr(none));
  CHECK(tileBlockTypeGetRank(none) == -1 && tileBlockTypeGetRank(f32) == -1);
  MlirType block = tileBlockTypeGet(ctx, 1, shape, f32);
  CHECK(tileBlockTypeGetDimSize(block, 0) == 4);
  CHECK(tileBlockTypeGetDimSize(block, 1) == -1);
  CHECK(tileBlockTypeGetDimSize(block, -1) == -1);
  CHECK(tileBlockTypeGetDimSize(f32, 0) == -1);
  CHECK(mlirTypeIsNull(tileBlockTypeGetElementType(f32)));
  CHECK(mlirAttributeIsNull(tileBlockTypeGetEncoding(none)));
  tileRegisterCompileDependencies((MlirDialectRegistry){NULL});
  mlirContextDetachDiagnosticHandler(ctx, handler);
  CHECK(strstr(diagnostics.data, "2^31 elements") != NULL);
  CHECK(strstr(diagnostics.data, "needs a shape, got a null one") != NULL);
}

static MlirWalkResult findPTX(MlirOperation op, void *userData) {
  MlirIdentifier name = mlirOperationGetName(op);
  MlirStringRef opName = mlirIdentifierStr(name);
  if (opName.length != strlen("gpu.binary") ||
      strncmp(opName.data, "gpu.binary", opName.length))
    return MlirWalkResultAdvance;
  MlirAttribute objects = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("objects"));
  if (!mlirAttributeIsNull(objects) && mlirArrayAttrGetNumElements(objects) > 0)
    appendText(mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0)),
               userData);
  return MlirWalkResultInterrupt;
}

/* Route 1: the MLIR C API with the tile dialect, passes and pipeline. */
static void checkPipeline(MlirContext ctx, const char *source, size_t size) {
  Text diagnostics = {.size = 0};
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, collectDiagnostic, &diagnostics, NULL);
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreate(source, size));
  CHECK(!mlirModuleIsNull(module));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "%s", diagnostics.data);
    mlirContextDetachDiagnosticHandler(ctx, handler);
    return;
  }

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  Text pipelineErrors = {.size = 0};
  MlirLogicalResult added = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "tile-to-nvvm{chip=sm_90 num-warps=4},gpu-module-to-binary{format=isa}"),
      appendText, &pipelineErrors);
  CHECK(mlirLogicalResultIsSuccess(added));
  if (mlirLogicalResultIsFailure(added))
    fprintf(stderr, "%s\n", pipelineErrors.data);
  CHECK(mlirLogicalResultIsSuccess(
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))));

  Text ptx = {.size = 0};
  mlirOperationWalk(mlirModuleGetOperation(module), findPTX, &ptx, MlirWalkPreOrder);
  CHECK(strstr(ptx.data, ".target sm_90") != NULL);
  CHECK(strstr(ptx.data, ".visible .entry") != NULL);
  printf("pipeline PTX: %zu bytes\n%s\n", ptx.size, ptx.data);

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDetachDiagnosticHandler(ctx, handler);
  CHECK(diagnostics.size == 0);

  /* Bad IR: the handler receives a located diagnostic. */
  diagnostics.size = 0;
  diagnostics.data[0] = '\0';
  handler = mlirContextAttachDiagnosticHandler(ctx, collectDiagnostic, &diagnostics, NULL);
  const char *bad =
      "func.func @bad(%x: !tile.block<16x2xf32>) {\n"
      "  %y = tile.broadcast %x : !tile.block<16x2xf32> -> !tile.block<16x32xf32>\n"
      "  return\n"
      "}\n";
  MlirModule badModule = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(bad));
  CHECK(mlirModuleIsNull(badModule));
  CHECK(strstr(diagnostics.data, "cannot broadcast 16x2 to 16x32") != NULL);
  printf("parse diagnostics:\n%s", diagnostics.data);
  mlirContextDetachDiagnosticHandler(ctx, handler);
}

/* Route 2: the one-call compile, errors as text. */
static void checkCompile(const char *source, size_t size) {
  TileCompileResult *result = tileCompileWithOptions(
      source, size, "kernel.mlir", "sm_90", 4, /*emitCubin=*/0, NULL);
  CHECK(tileCompileSucceeded(result));
  size_t ptxSize = 0;
  const char *ptx = tileCompileResultGet(result, "ptx", &ptxSize);
  CHECK(ptx && ptxSize > 0 && strstr(ptx, ".visible .entry") != NULL);
  const char *metadata = tileCompileResultGet(result, "metadata", NULL);
  CHECK(metadata && strstr(metadata, "\"threads\"") != NULL);
  if (!tileCompileSucceeded(result))
    fprintf(stderr, "%s", tileCompileResultGet(result, "diagnostics", NULL));
  tileCompileResultDestroy(result);

  const char *bad = "func.func @k(%x: !tile.ptr<f32>) {\n  %v = tile.nonsense\n}\n";
  result = tileCompileWithOptions(bad, strlen(bad), "bad.mlir", NULL, 4, 0, NULL);
  CHECK(!tileCompileSucceeded(result));
  const char *diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
  CHECK(diagnostics && strstr(diagnostics, "bad.mlir:2:") != NULL);
  printf("tileCompile diagnostics:\n%s\n", diagnostics ? diagnostics : "(none)");
  tileCompileResultDestroy(result);

  /* Bad options are diagnostics, not a default and not a crash. */
  CHECK(strcmp(tileSupportedChips(), "sm_80,sm_86,sm_89,sm_90,sm_90a") == 0);
  const char *badChips[] = {"", "garbage", "sm_90; rm -rf x", "sm_", "SM_90"};
  for (size_t i = 0; i < sizeof badChips / sizeof *badChips; ++i) {
    result = tileCompileWithOptions(source, size, "kernel.mlir", badChips[i], 4, 0, NULL);
    CHECK(!tileCompileSucceeded(result));
    diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
    CHECK(diagnostics && strstr(diagnostics, "unsupported chip") != NULL &&
          strstr(diagnostics, "sm_80, sm_86, sm_89, sm_90, sm_90a") != NULL);
    tileCompileResultDestroy(result);
  }
  int badWarps[] = {0, -1, 3, 33, 1 << 30};
  for (size_t i = 0; i < sizeof badWarps / sizeof *badWarps; ++i) {
    result = tileCompile(source, size, "sm_90", badWarps[i], 0);
    CHECK(!tileCompileSucceeded(result));
    diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
    CHECK(diagnostics && strstr(diagnostics, "num-warps must be a power of two from 1 to 32") != NULL);
    tileCompileResultDestroy(result);
  }
  /* tileCompileWith: an nvJitLink that cannot be loaded is an error naming it. */
  TileCompileOptions options = {0};
  options.chip = "sm_90a";
  options.emitCubin = 1;
  options.nvJitLink = "/nonexistent/libnvJitLink.so.13";
  result = tileCompileWith(source, size, &options);
  CHECK(!tileCompileSucceeded(result));
  diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
  CHECK(diagnostics &&
        strstr(diagnostics, "cannot load nvJitLink from /nonexistent/") != NULL);
  tileCompileResultDestroy(result);
  /* A toolkit without bin/ptxas, or a ptxas that cannot run, is an error
   * naming it: no other ptxas is used instead. */
  options.nvJitLink = NULL;
  options.cudaToolkit = "/nonexistent/cuda";
  result = tileCompileWith(source, size, &options);
  CHECK(!tileCompileSucceeded(result));
  diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
  CHECK(diagnostics &&
        strstr(diagnostics, "ptxas not found: /nonexistent/cuda/bin/ptxas does "
                            "not exist or is not executable (the CUDA toolkit "
                            "/nonexistent/cuda comes from --cuda-path") != NULL);
  size_t cubinSize = 1;
  tileCompileResultGet(result, "cubin", &cubinSize);
  CHECK(cubinSize == 0);
  tileCompileResultDestroy(result);
  options.cudaToolkit = NULL;
  options.ptxas = "/nonexistent/ptxas";
  result = tileCompileWith(source, size, &options);
  CHECK(!tileCompileSucceeded(result));
  diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
  CHECK(diagnostics &&
        strstr(diagnostics, "ptxas /nonexistent/ptxas is not an executable file") !=
            NULL);
  tileCompileResultDestroy(result);
  options.ptxas = NULL;
  options.emitCubin = 0;
  options.chip = "";
  result = tileCompileWith(source, size, &options);
  CHECK(!tileCompileSucceeded(result));
  tileCompileResultDestroy(result);
  options.chip = "sm_90a";
  options.numWarps = -4;
  result = tileCompileWith(source, size, &options);
  CHECK(!tileCompileSucceeded(result));
  tileCompileResultDestroy(result);
  options.numWarps = 0; /* the default, 4 */
  result = tileCompileWith(source, size, &options);
  CHECK(tileCompileSucceeded(result));
  ptx = tileCompileResultGet(result, "ptx", NULL);
  CHECK(ptx && strstr(ptx, ".target sm_90a") != NULL);
  CHECK(strstr(ptx, ".maxnreg") == NULL);
  tileCompileResultDestroy(result);
  /* maxRegisters (Triton's maxnreg): .maxnreg on the kernel; out of range,
   * a diagnostic (a negative int does not wrap). */
  options.maxRegisters = 48;
  result = tileCompileWith(source, size, &options);
  CHECK(tileCompileSucceeded(result));
  ptx = tileCompileResultGet(result, "ptx", NULL);
  CHECK(ptx && strstr(ptx, ".maxnreg 48") != NULL);
  tileCompileResultDestroy(result);
  int badLimits[] = {-1, 256};
  for (size_t i = 0; i < sizeof badLimits / sizeof *badLimits; ++i) {
    options.maxRegisters = badLimits[i];
    result = tileCompileWith(source, size, &options);
    CHECK(!tileCompileSucceeded(result));
    diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
    CHECK(diagnostics && strstr(diagnostics, "maxnreg must be from 1 to 255") != NULL);
    tileCompileResultDestroy(result);
  }
  options.maxRegisters = 0;

  /* A kernel name LLVM cannot emit used to abort the calling process. */
  const char *dotted = "func.func @\"my.kernel\"() {\n  return\n}\n";
  result = tileCompile(dotted, strlen(dotted), NULL, 4, 0);
  CHECK(!tileCompileSucceeded(result));
  diagnostics = tileCompileResultGet(result, "diagnostics", NULL);
  CHECK(diagnostics && strstr(diagnostics, "kernel name 'my.kernel'") != NULL);
  printf("bad name diagnostics:\n%s\n", diagnostics ? diagnostics : "(none)");
  tileCompileResultDestroy(result);

  /* Null handles and unknown outputs. */
  CHECK(!tileCompileSucceeded(NULL));
  CHECK(tileCompileResultGet(NULL, "ptx", NULL) == NULL);
  tileCompileResultDestroy(NULL);
  result = tileCompile(NULL, 10, NULL, 4, 0);
  CHECK(!tileCompileSucceeded(result));
  CHECK(tileCompileResultGet(result, NULL, NULL) == NULL);
  CHECK(tileCompileResultGet(result, "nonsense", NULL) == NULL);
  tileCompileResultDestroy(result);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s kernel.mlir\n", argv[0]);
    return 2;
  }
  size_t size = 0;
  char *source = readFile(argv[1], &size);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  /* Everything the pipeline needs, the tile dialect among it; and the tile
   * passes, so the textual pipeline can name them. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterCompileDependencies(registry);
  tileRegisterPasses();
  tileRegisterPasses(); /* a second call is harmless */
  mlirRegisterGPUPasses(); /* gpu-module-to-binary, for the PTX */
  MlirContext ctx = mlirContextCreateWithRegistry(registry, /*threading=*/false);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__tile__(), ctx);

  checkTypes(ctx);
  checkTypeDiagnostics(ctx);
  checkInvalidHandles(ctx);
  checkPipeline(ctx, source, size);
  mlirContextDestroy(ctx);
  checkCompile(source, size);

  free(source);
  printf("%s\n", failures ? "FAILED" : "OK");
  return failures ? 1 : 0;
}

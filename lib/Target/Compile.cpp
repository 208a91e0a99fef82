//===- Compile.cpp - the whole compile, tile IR text to PTX/cubin ---------===//

#include "tile/Target/Compile.h"
#include "Assemble.h"
#include "CubinResources.h"
#include "Occupancy.h"
#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ProgramStack.h"
#include "llvm/Support/SourceMgr.h"

#include <future>
#include <utility>

#ifndef TILE_DEFAULT_CUDA_TOOLKIT
#define TILE_DEFAULT_CUDA_TOOLKIT "/usr/local/cuda"
#endif

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::registerPipelineDependencies(DialectRegistry &registry) {
  // The dialects a kernel is written in and lowered to.
  registry.insert<TileDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  index::IndexDialect, ub::UBDialect, gpu::GPUDialect,
                  NVVM::NVVMDialect, LLVM::LLVMDialect>();
  // Inlining of func calls; the ConvertToLLVM patterns that
  // convert-gpu-to-nvvm takes from each dialect.
  func::registerInlinerExtension(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  // Translation to LLVM IR and serialization to PTX.
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

/// Tile IR to gpu.func kernels: clean-up, layouts, conversion.
static void buildTileToGPUPipeline(OpPassManager &pm,
                                   const CompileOptions &options) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After CSE, so that one map serves every load of one descriptor.
  TileLaunchTensorMapsOptions mapOptions;
  mapOptions.chip = options.chip;
  pm.addPass(createTileLaunchTensorMaps(mapOptions));
  pm.addPass(createTileUnrollLoops());
  pm.addPass(createTileHoistLoopReductions());
  pm.addPass(createTileOffsetLoopPointers());
  TilePipelineLoopsOptions pipelineOptions;
  pipelineOptions.numStages = options.numStages;
  pm.addPass(createTilePipelineLoops(pipelineOptions));
  pm.addPass(createCanonicalizerPass());
  TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  layoutOptions.chip = options.chip;
  pm.addPass(createTileAssignLayouts(layoutOptions));
  pm.addPass(createTileAsyncDotOperands());
  ConvertTileToGPUOptions gpuOptions;
  gpuOptions.chip = options.chip;
  gpuOptions.fpFusion = options.fpFusion;
  pm.addPass(createConvertTileToGPU(gpuOptions));
}

namespace {
/// Gives the GPU module the LLVM module flag that libdevice's
/// `__nvvm_reflect("__CUDA_FTZ")` reads (LLVM's NVVMReflect pass, early in
/// the NVPTX -O3 pipeline): its functions then flush subnormals to zero.
struct ReflectFtzPass
    : public PassWrapper<ReflectFtzPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReflectFtzPass)
  StringRef getArgument() const final { return "tile-reflect-ftz"; }
  void runOnOperation() final {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (!module.getOps<LLVM::ModuleFlagsOp>().empty()) {
      module.emitError("has llvm.module_flags already; the reflect-ftz "
                       "option would replace them");
      return signalPassFailure();
    }
    auto flag = LLVM::ModuleFlagAttr::get(
        context, LLVM::ModFlagBehavior::Override,
        StringAttr::get(context, "nvvm-reflect-ftz"),
        IntegerAttr::get(IntegerType::get(context, 32), 1));
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    LLVM::ModuleFlagsOp::create(builder, module.getLoc(),
                                builder.getArrayAttr({flag}));
  }
};

/// Makes each kernel's tensor map parameters (kTensorMapArgsAttrName)
/// 128-byte by-value parameters that the kernel reads in place
/// (`nvvm.grid_constant`: TMA takes the parameter's address). The
/// conversion to LLVM keeps no `llvm.byval` of a gpu.func, and the NVVM
/// dialect accepts `nvvm.grid_constant` on LLVM kernels only: both are set
/// here.
struct GridConstantParamsPass
    : public PassWrapper<GridConstantParamsPass,
                         OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GridConstantParamsPass)
  StringRef getArgument() const final { return "tile-grid-constant-params"; }
  void runOnOperation() final {
    Builder builder(&getContext());
    Type mapBytes = LLVM::LLVMArrayType::get(builder.getI8Type(), 128);
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto args =
          func->getAttrOfType<DenseI32ArrayAttr>(kTensorMapArgsAttrName);
      if (!args)
        continue;
      for (int32_t arg : args.asArrayRef()) {
        func.setArgAttr(arg, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(mapBytes));
        func.setArgAttr(arg, NVVM::NVVMDialect::getGridConstantAttrName(),
                        builder.getUnitAttr());
      }
    }
  }
};

/// Limits the registers of each kernel (`nvvm.maxnreg`, PTX `.maxnreg`),
/// not of the functions it calls: Triton's maxnreg.
struct MaxRegistersPass
    : public PassWrapper<MaxRegistersPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MaxRegistersPass)
  explicit MaxRegistersPass(unsigned maxRegisters)
      : maxRegisters(maxRegisters) {}
  StringRef getArgument() const final { return "tile-max-registers"; }
  void runOnOperation() final {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                      builder.getI32IntegerAttr(maxRegisters));
  }
  unsigned maxRegisters;
};
} // namespace

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

std::optional<std::string> mlir::tile::checkNumWarps(int64_t numWarps) {
  // The layouts spread blocks over a power of two of warps.
  if (numWarps >= 1 && numWarps <= 32 && llvm::isPowerOf2_64(numWarps))
    return std::nullopt;
  return "num-warps must be a power of two from 1 to 32, not " +
         std::to_string(numWarps);
}

std::optional<std::string> mlir::tile::checkMaxRegisters(int64_t maxRegisters) {
  if (maxRegisters >= 0 && maxRegisters <= 255)
    return std::nullopt;
  return "maxnreg must be from 1 to 255 registers per thread (0: no limit), "
         "not " +
         std::to_string(maxRegisters);
}

std::optional<std::string>
mlir::tile::checkCompileOptions(const CompileOptions &options) {
  if (auto error = checkChip(options.chip))
    return error;
  if (auto error = checkMaxRegisters(options.maxRegisters))
    return error;
  return checkNumWarps(options.numWarps);
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

/// gpu.func kernels to the LLVM and NVVM dialects, with a target attached.
static void buildGPUToNVVMPipeline(OpPassManager &pm,
                                   const CompileOptions &options) {
  OpPassManager &gpuModule = pm.nest<gpu::GPUModuleOp>();
  // Bottom-up: the lowered kernels' loops carry every register of their
  // blocks, and top-down traversal spent 1.4 s of tutorial 06's backward
  // (D128) in the region-branch canonicalizations of those loops, against
  // 0.1 s bottom-up for the same result.
  GreedyRewriteConfig bottomUp;
  bottomUp.setUseTopDownTraversal(false);
  gpuModule.addPass(createCanonicalizerPass(bottomUp));
  gpuModule.addPass(createCSEPass());
  gpuModule.addPass(createSCFToControlFlowPass());
  gpuModule.addPass(createConvertGpuOpsToNVVMOps());
  gpuModule.addPass(createConvertNVVMToLLVMPass());
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  gpuModule.addPass(createReconcileUnrealizedCastsPass());
  if (options.reflectFtz)
    gpuModule.addPass(std::make_unique<ReflectFtzPass>());
  if (options.maxRegisters)
    gpuModule.addPass(std::make_unique<MaxRegistersPass>(options.maxRegisters));
  gpuModule.addPass(std::make_unique<GridConstantParamsPass>());
  // A subprogram for each function turns the ops' source locations into the
  // line table of the PTX (`.file`/`.loc`).
  if (options.lineInfo)
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = options.chip;
  if (const ChipInfo *chip = lookupChip(options.chip))
    targetOptions.features = chip->extraFeatures.str();
  targetOptions.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
}

void mlir::tile::buildTileToNVVMPipeline(OpPassManager &pm,
                                         const CompileOptions &options) {
  buildTileToGPUPipeline(pm, options);
  buildGPUToNVVMPipeline(pm, options);
}

namespace {
struct TileToNVVMPipelineOptions
    : public PassPipelineOptions<TileToNVVMPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target GPU"),
                           llvm::cl::init("sm_90")};
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("Warps per program instance"),
                            llvm::cl::init(CompileOptions().numWarps)};
  Option<unsigned> numStages{
      *this, "num-stages",
      llvm::cl::desc("Loop iterations whose dot operands load at once"),
      llvm::cl::init(CompileOptions().numStages)};
  Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("Give the functions debug scopes, so that the PTX has "
                     "a line table"),
      llvm::cl::init(CompileOptions().lineInfo)};
  Option<bool> fpFusion{
      *this, "fp-fusion",
      llvm::cl::desc("Let a float multiply and add fuse into an fma"),
      llvm::cl::init(CompileOptions().fpFusion)};
  Option<bool> reflectFtz{
      *this, "reflect-ftz",
      llvm::cl::desc("Make libdevice's functions flush subnormals to zero"),
      llvm::cl::init(CompileOptions().reflectFtz)};
  Option<unsigned> maxnreg{
      *this, "maxnreg",
      llvm::cl::desc("Registers per thread a kernel may use (0: no limit)"),
      llvm::cl::init(CompileOptions().maxRegisters)};
};
} // namespace

void mlir::tile::registerTilePipelines() {
  // PassPipelineRegistration offers no way to reject option values, so the
  // pipeline is registered with a builder that can fail.
  registerPassPipeline(
      "tile-to-nvvm",
      "Lower tile kernels to the NVVM and LLVM dialects, ready for "
      "serialization to PTX",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        TileToNVVMPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::optional<std::string> error = checkChip(options.chip);
        if (!error)
          error = checkNumWarps(options.numWarps);
        if (!error)
          error = checkMaxRegisters(options.maxnreg);
        if (error)
          return errorHandler("tile-to-nvvm: " + *error);
        CompileOptions compile;
        compile.chip = options.chip;
        compile.numWarps = options.numWarps;
        compile.numStages = options.numStages;
        compile.lineInfo = options.lineInfo;
        compile.fpFusion = options.fpFusion;
        compile.reflectFtz = options.reflectFtz;
        compile.maxRegisters = options.maxnreg;
        buildTileToNVVMPipeline(pm, compile);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> printOptions) {
        printOptions(TileToNVVMPipelineOptions());
      });
}

CudaToolkit mlir::tile::getCudaToolkit(const CompileOptions &options) {
  if (!options.cudaToolkit.empty())
    return {options.cudaToolkit, "--cuda-path"};
  if (const char *home = std::getenv("CUDA_HOME"))
    if (*home)
      return {home, "CUDA_HOME"};
  return {TILE_DEFAULT_CUDA_TOOLKIT, kBuildDefaultToolkit};
}

std::string mlir::tile::getCudaToolkitPath(const CompileOptions &options) {
  return getCudaToolkit(options).path;
}

//===----------------------------------------------------------------------===//
// Input limits
//===----------------------------------------------------------------------===//

LogicalResult mlir::tile::checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                                            MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') { // a string: skip to the closing quote
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') { // a comment
      i = std::min(text.find('\n', i), e);
    } else if (c == '-' && i + 1 < e && text[i + 1] == '>') { // `->`
      ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth <= kMaxNestingDepth)
        continue;
      auto [line, column] =
          sourceMgr.getLineAndColumn(SMLoc::getFromPointer(text.data() + i));
      return emitError(FileLineColLoc::get(
                 context, buffer->getBufferIdentifier(), line, column))
             << "nesting deeper than " << kMaxNestingDepth
             << " levels of brackets ( [ { < here; tile limits the nesting "
                "of its input because the parser, verifier and passes "
                "recurse over it";
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    }
  }
  return success();
}

OwningOpRef<ModuleOp>
mlir::tile::parseTileSource(const llvm::SourceMgr &sourceMgr,
                            MLIRContext *context) {
  if (failed(checkNestingDepth(sourceMgr, context)))
    return {};
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}

void mlir::tile::runWithLargeStack(llvm::function_ref<void()> body) {
  llvm::runOnNewStack(kCompileStackBytes, body);
}

//===----------------------------------------------------------------------===//
// Launch facts
//===----------------------------------------------------------------------===//

static std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Parameter names come from the argument locations a frontend gives
/// (`loc("x_ptr")` or a NameLoc around a file location).
static std::string argumentName(BlockArgument arg) {
  Location loc = arg.getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  return "arg" + std::to_string(arg.getArgNumber());
}

static std::vector<KernelInfo> collectKernelSignatures(ModuleOp module) {
  std::vector<KernelInfo> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    KernelInfo info;
    info.name = func.getName().str();
    for (BlockArgument arg : func.getArguments()) {
      KernelInfo::Param param;
      param.name = argumentName(arg);
      if (auto ptr = dyn_cast<PtrType>(arg.getType())) {
        param.type = "ptr";
        param.pointee = typeName(ptr.getPointeeType());
      } else if (isa<TensorMapType>(arg.getType())) {
        param.type = "tensormap";
      } else {
        param.type = typeName(arg.getType());
      }
      info.params.push_back(param);
    }
    kernels.push_back(info);
  }
  return kernels;
}

static void collectLaunchFacts(ModuleOp module,
                               std::vector<KernelInfo> &kernels) {
  module.walk([&](gpu::GPUFuncOp func) {
    for (KernelInfo &info : kernels) {
      if (info.name != func.getName())
        continue;
      auto get = [&](StringRef name, unsigned fallback) -> unsigned {
        if (auto attr = func->getAttrOfType<IntegerAttr>(name))
          return attr.getInt();
        return fallback;
      };
      info.numWarps = get(kNumWarpsAttrName, info.numWarps);
      info.threads = get(kThreadsAttrName, info.threads);
      info.sharedBytes = get(kSharedBytesAttrName, 0);
      info.tensorCores = func->hasAttr(kTensorCoresAttrName);
      // The parameters tile-launch-tensor-maps added after the arguments'.
      for (unsigned arg = info.params.size(); arg < func.getNumArguments();
           ++arg) {
        KernelInfo::Param param;
        param.type = "tensormap";
        std::string error;
        if (auto attr = func.getArgAttr(arg, kTensorMapRecipeAttrName))
          if (auto recipe = TensorMapRecipe::fromAttr(attr, error);
              succeeded(recipe)) {
            param.name = recipe->name;
            param.recipe = *recipe;
          }
        info.params.push_back(param);
      }
      if (auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapsAttrName))
        for (auto map : maps.getAsRange<DictionaryAttr>()) {
          unsigned arg = cast<IntegerAttr>(map.get("arg")).getInt();
          if (arg >= info.params.size())
            continue;
          KernelInfo::Param &param = info.params[arg];
          ArrayRef<int64_t> box =
              cast<DenseI64ArrayAttr>(map.get("box")).asArrayRef();
          param.box.assign(box.begin(), box.end());
          param.swizzle = cast<IntegerAttr>(map.get("swizzle")).getInt();
          param.elementBytes =
              cast<IntegerAttr>(map.get("element_bytes")).getInt();
        }
    }
  });
}

std::string mlir::tile::getCubinWithoutLimitPath(StringRef cubinPath) {
  SmallString<256> path(cubinPath);
  llvm::sys::path::replace_extension(path, "without-limit.cubin");
  return std::string(path);
}

std::string CompileResult::metadataJson() const {
  llvm::json::Array kernelArray;
  for (const KernelInfo &kernel : kernels) {
    llvm::json::Array params;
    for (const KernelInfo::Param &param : kernel.params) {
      llvm::json::Object object{{"name", param.name}, {"type", param.type}};
      if (!param.pointee.empty())
        object["pointee"] = param.pointee;
      if (!param.box.empty()) {
        object["box"] = llvm::json::Array(param.box);
        object["swizzle"] = param.swizzle;
        object["element_bytes"] = param.elementBytes;
      }
      if (param.recipe) {
        auto products = [](ArrayRef<LaunchProduct> values) {
          llvm::json::Array array;
          for (const LaunchProduct &product : values)
            array.push_back(llvm::json::Array{product.scale,
                                              llvm::json::Array(product.args)});
          return array;
        };
        object["recipe"] =
            llvm::json::Object{{"base", param.recipe->base},
                               {"shape", products(param.recipe->shape)},
                               {"strides", products(param.recipe->strides)}};
      }
      params.push_back(std::move(object));
    }
    kernelArray.push_back(
        llvm::json::Object{{"name", kernel.name},
                           {"num_warps", kernel.numWarps},
                           {"threads", kernel.threads},
                           {"shared_bytes", kernel.sharedBytes},
                           {"params", std::move(params)}});
    auto &object = *kernelArray.back().getAsObject();
    if (kernel.registers) {
      object["registers"] = kernel.registers;
      object["stack_frame_bytes"] = kernel.stackFrameBytes;
    }
    if (kernel.occupancyMaxRegisters)
      object["occupancy_maxnreg"] = kernel.occupancyMaxRegisters;
    if (kernel.residentBlocksWithoutLimit) {
      object["registers_without_limit"] = kernel.registersWithoutLimit;
      object["resident_blocks_without_limit"] =
          kernel.residentBlocksWithoutLimit;
    }
  }
  llvm::json::Object root{{"chip", chip}, {"kernels", std::move(kernelArray)}};
  if (!assembler.empty())
    root["assembler"] = assembler;
  if (!libdevice.empty())
    root["libdevice"] = libdevice;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return text;
}

//===----------------------------------------------------------------------===//
// The compile
//===----------------------------------------------------------------------===//

/// The libdevice functions (`__nv_*`) the GPU module calls, if the toolkit
/// has no libdevice to resolve them: serialization would leave them as
/// unresolved `.extern .func` declarations in the PTX, which fail only when
/// the module is loaded.
static LogicalResult checkLibdevice(gpu::GPUModuleOp gpuModule,
                                    const CudaToolkit &toolkit,
                                    StringRef libdevice) {
  if (llvm::sys::fs::exists(libdevice))
    return success();
  for (auto func : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
    if (!func.isExternal() || !func.getName().starts_with("__nv_"))
      continue;
    return emitError(func.getLoc())
           << "the kernels call the libdevice function '" << func.getName()
           << "', but " << libdevice << " does not exist (the CUDA toolkit "
           << toolkit.path << " comes from " << toolkit.origin
           << "; set CUDA_HOME or --cuda-path to a CUDA toolkit)";
  }
  return success();
}

/// Removes the `debug` of the PTX's `.target` directive, which the NVPTX
/// backend writes for any debug info, line tables too: ptxas reads it as
/// device debugging (as -G) and leaves the code unoptimized. The `.loc`
/// line table stays, and `-lineinfo` keeps it in the cubin.
static void dropDebugTarget(std::string &ptx) {
  size_t target = ptx.find("\n.target ");
  if (target == std::string::npos)
    return;
  size_t end = ptx.find('\n', target + 1);
  size_t debug = ptx.find(", debug", target);
  if (debug != std::string::npos && debug < end)
    ptx.erase(debug, strlen(", debug"));
}

/// Sets LLVM option `name` to `value` in this process, as if given on the
/// command line (some passes read a value only then), unless the process
/// chose a value itself. LLVM options are process-wide: the wheel's library
/// has its own LLVM, tools linking libLLVM.so share the setting.
static bool defaultLlvmOption(StringRef name, StringRef value) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find(name);
  if (found == options.end() || found->second->getNumOccurrences() > 0)
    return false;
  return !found->second->addOccurrence(0, name, value);
}

/// The LLVM options this compiler's code generation assumes, set once.
///
/// `-slp-max-vf=2` limits the SLP vectorizer to trees of 2 lanes: NVPTX's
/// packed arithmetic (f16x2, bf16x2) is 2 wide and its v2/v4 loads and
/// stores come from the load-store vectorizer, while wider trees only cost
/// compile time (SLP took 7.3 of 7.5 s of -O3 on four 128x128 FMA dot
/// kernels, and 0.3 s in all at 2).
///
/// `-nvptx-short-ptr` makes shared (and local, const) pointers 32 bits, as
/// Triton has them: a 64-bit shared address is a shared::cluster one, which
/// ptxas builds from the CTA's cluster id (S2R SR_CgaCtaId) in a vector
/// register, and every wgmma descriptor made from it then left the uniform
/// registers (R2UR before each HGMMA).
static void setLlvmOptionDefaults() {
  static const bool done = [] {
    defaultLlvmOption("slp-max-vf", "2");
    defaultLlvmOption("nvptx-short-ptr", "true");
    return true;
  }();
  (void)done;
}

/// `ptx` with `directive` (".maxnreg 56") among the directives of entry
/// `name`, or nothing if the entry's body is not found.
static std::optional<std::string>
withEntryDirective(StringRef ptx, StringRef name, const Twine &directive) {
  size_t entry = ptx.find((".entry " + name + "(").str());
  if (entry == StringRef::npos)
    return std::nullopt;
  size_t body = ptx.find("\n{", entry);
  if (body == StringRef::npos)
    return std::nullopt;
  return (ptx.take_front(body) + "\n" + directive + ptx.drop_front(body)).str();
}

/// The directive that asks the assembler for one block per SM.
static constexpr StringLiteral kOneBlockPerSM = ".minnctapersm 1";

/// Registers are a kernel's only resource an assembler trades on its own,
/// and it trades them without knowing the grid: ptxas 13.0 keeps a kernel
/// near full occupancy (tutorial 05's layer-norm at 8192x4096: 40
/// registers, 6 of 8 blocks), nvJitLink 13.5 spends them on overlapping
/// loads (56). Which is right depends on
/// the launch, so the compile makes both cubins and the launcher picks:
///
/// - `cubin` (and `ptx`), for grids larger than the device holds at once:
///   where the assembler's registers keep blocks off an SM, the kernel is
///   assembled again under each of getOccupancyRegisterLimits, most blocks
///   first, and the first that spills nothing (no stack frame) is kept;
///   or, where the kernel takes more registers for one block per SM (loads
///   to overlap), under getLatencyRegisterBudget if its own are within
///   it. The limit goes into the PTX text, not through LLVM again: only
///   the assembler's work changes.
/// - `cubinWithoutLimit`, for grids whose blocks all fit at once, where
///   occupancy buys nothing and registers may: the kernel assembled for one
///   block per SM (`.minnctapersm 1`), which lets the assembler spend
///   registers on loads in flight (the column sum's loop: 56 registers and
///   two of its eight 16-byte loads in flight from ptxas 13.0's own
///   choice, 93 and all eight this way), if that uses more registers than
///   `cubin`'s and spills nothing; else, where the search limited `cubin`,
///   the assembler's own cubin.
///
/// Kernels on the tensor cores are left as assembled: their loads are in
/// flight through the stages of their shared-memory rings already, and more
/// blocks on an SM only share its tensor cores (tutorial 03's 128x128x32
/// config ran 5% slower with 3 blocks of 168 registers per SM than with the
/// assembler's 2 on an H100; under a deeper limit ptxas serializes wgmma
/// groups instead, C7512).
template <typename Assemble>
static void chooseRegisters(StringRef chipName, KernelInfo &kernel,
                            std::string &ptx, std::string &cubin,
                            std::string &cubinWithoutLimit, Assemble assemble,
                            std::optional<AssembleResult> oneBlockAssembled) {
  const ChipInfo *chip = lookupChip(chipName);
  // A kernel with a stack frame already spills (or keeps arrays in local
  // memory): fewer registers would only add to it. (Kernels on the tensor
  // cores never get here: the caller leaves them out.)
  if (!chip || kernel.registers == 0 || kernel.stackFrameBytes != 0)
    return;
  // A cubin and its registers, where it spills nothing.
  auto unspilled = [&](AssembleResult assembled)
      -> std::optional<std::pair<std::string, unsigned>> {
    std::optional<KernelResources> used =
        assembled.succeeded ? readKernelResources(assembled.cubin, kernel.name)
                            : std::nullopt;
    if (!used || used->stackFrameBytes != 0)
      return std::nullopt;
    return std::make_pair(std::move(assembled.cubin), used->registers);
  };
  KernelFootprint footprint{kernel.numWarps, kernel.sharedBytes,
                            kernel.registers};
  std::optional<std::pair<std::string, unsigned>> oneBlock;
  if (oneBlockAssembled)
    oneBlock = unspilled(std::move(*oneBlockAssembled));
  if (oneBlock && oneBlock->second <= kernel.registers)
    oneBlock.reset();
  // A kernel whose registers keep warps off its SMs but that takes more of
  // them for one block per SM has loads to overlap, and neither ptxas's
  // choice nor more blocks serve it best: under `.maxnreg` of half the
  // SM's warps (getLatencyRegisterBudget: 64 registers) the naive matmul
  // (K unrolled; ptxas 48 registers, 251 for one block) takes 64 and runs
  // at K=128 in 212 us, against 280 with its own 48 and 243 with 251;
  // tutorial 05's layer-norm at 8192x4096 (40, 56 for one block) 52.1 us
  // against 54.8 with the 32 that fill the SM, at 4096x8192 (64, 80)
  // 52.1 against 58.7 with 48 (bench/profile_registers.py, an H100,
  // session 47). Such a kernel's main cubin is assembled under that budget
  // where its own registers are within it and that spills nothing; the
  // search for occupancy below is for the others.
  // The kernel assembled under `.maxnreg limit`, made the main cubin if it
  // spills nothing; the cubin it replaces is returned.
  auto useLimit = [&](unsigned limit) -> std::optional<std::string> {
    std::optional<std::string> limitedPtx =
        withEntryDirective(ptx, kernel.name, ".maxnreg " + Twine(limit));
    auto limited = limitedPtx ? unspilled(assemble(*limitedPtx)) : std::nullopt;
    if (!limited)
      return std::nullopt;
    ptx = std::move(*limitedPtx);
    kernel.registers = limited->second;
    kernel.occupancyMaxRegisters = limit;
    return std::exchange(cubin, std::move(limited->first));
  };
  unsigned budget = getLatencyRegisterBudget(*chip, footprint);
  if (oneBlock && kernel.registers <= budget &&
      registersLimitBlocks(*chip, footprint) && useLimit(budget)) {
    if (oneBlock->second <= kernel.registers)
      oneBlock.reset();
  } else {
    for (unsigned limit : getOccupancyRegisterLimits(*chip, footprint)) {
      if (std::optional<std::string> own = useLimit(limit)) {
        cubinWithoutLimit = std::move(*own);
        kernel.registersWithoutLimit = footprint.registersPerThread;
        kernel.residentBlocksWithoutLimit = getResidentBlocks(*chip, footprint);
        break;
      }
    }
  }
  if (oneBlock) {
    cubinWithoutLimit = std::move(oneBlock->first);
    kernel.registersWithoutLimit = oneBlock->second;
    kernel.residentBlocksWithoutLimit = getResidentBlocks(
        *chip, {kernel.numWarps, kernel.sharedBytes, oneBlock->second});
  }
}

/// The compile, on the caller's choice of stack.
static void compile(StringRef source, StringRef bufferName,
                    const CompileOptions &options, CompileResult &result) {
  llvm::raw_string_ostream diagnostics(result.diagnostics);
  if (std::optional<std::string> error = checkCompileOptions(options)) {
    diagnostics << "error: " << *error << "\n";
    return;
  }

  DialectRegistry registry;
  registerPipelineDependencies(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseTileSource(sourceMgr, &context);
  if (!module)
    return;
  // The lowering adds the GPU module beside the functions and reads back
  // the one it made: nothing else belongs at the top level.
  for (Operation &op : module->getBody()->getOperations()) {
    if (!isa<func::FuncOp>(op)) {
      emitError(op.getLoc())
          << "tile IR holds func.func kernels and device functions at the top "
             "level, not '"
          << op.getName() << "'";
      return;
    }
  }
  result.kernels = collectKernelSignatures(*module);
  if (result.kernels.empty()) {
    emitError(module->getLoc()) << "no kernel: a kernel is a public func.func";
    return;
  }
  // Before any pass, which may assume a kernel's interface.
  for (auto func : module->getOps<func::FuncOp>())
    if (func.isPublic() && failed(verifyKernelInterface(func)))
      return;

  PassManager toGPU(&context);
  buildTileToGPUPipeline(toGPU, options);
  if (failed(toGPU.run(*module)))
    return;
  collectLaunchFacts(*module, result.kernels);

  PassManager toNVVM(&context);
  buildGPUToNVVMPipeline(toNVVM, options);
  if (failed(toNVVM.run(*module)))
    return;

  gpu::GPUModuleOp gpuModule;
  module->walk([&](gpu::GPUModuleOp op) { gpuModule = op; });
  if (!gpuModule) {
    emitError(module->getLoc()) << "lowering produced no GPU module";
    return;
  }

  // LLVM IR, before libdevice is linked.
  {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(gpuModule, llvmContext, "tile_kernels");
    if (!llvmModule)
      return;
    llvm::raw_string_ostream os(result.llvmIR);
    llvmModule->print(os, nullptr);
  }

  // libdevice is linked from <toolkit>/nvvm/libdevice/libdevice.10.bc, or
  // from the file the options name. That one goes first in the serializer's
  // list of libraries, before the toolkit's (which it appends itself): with
  // only needed symbols linked, its definitions are the ones used.
  CudaToolkit toolkit = getCudaToolkit(options);
  SmallString<256> libdevice(toolkit.path);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  SmallVector<Attribute> librariesToLink;
  if (!options.libdevice.empty()) {
    if (!llvm::sys::fs::is_regular_file(options.libdevice)) {
      emitError(gpuModule.getLoc())
          << "the libdevice to link, " << options.libdevice
          << " (extern_libs), does not exist or is not a file";
      return;
    }
    libdevice = options.libdevice;
    librariesToLink.push_back(StringAttr::get(&context, libdevice));
  } else if (failed(checkLibdevice(gpuModule, toolkit, libdevice))) {
    return;
  }
  auto target = cast<gpu::TargetAttrInterface>(gpuModule.getTargetsAttr()[0]);
  // The serializer needs the toolkit only for libdevice (checked above) and
  // reports a missing one as an error with the whole module attached: a PTX
  // without math calls needs no toolkit.
  if (llvm::sys::fs::is_regular_file(libdevice))
    result.libdevice = libdevice.str().str();
  gpu::TargetOptions targetOptions(
      llvm::sys::fs::is_directory(toolkit.path) ? toolkit.path : "",
      librariesToLink, "", "", gpu::CompilationTarget::Assembly);
  setLlvmOptionDefaults();
  std::optional<SmallVector<char, 0>> ptx =
      target.serializeToObject(gpuModule, targetOptions);
  if (!ptx) {
    emitError(gpuModule.getLoc()) << "serialization to PTX failed";
    return;
  }
  result.ptx.assign(ptx->begin(), ptx->end());
  while (!result.ptx.empty() && result.ptx.back() == '\0')
    result.ptx.pop_back();
  if (options.lineInfo)
    dropDebugTarget(result.ptx);

  if (options.emitCubin) {
    auto assemble = [&](StringRef ptx) {
      return options.nvJitLink.empty()
                 ? assembleWithPtxas(options.ptxas, toolkit.path,
                                     toolkit.origin == kBuildDefaultToolkit
                                         ? ""
                                         : toolkit.origin,
                                     options.chip, ptx, options.lineInfo)
                 : assembleWithNvJitLink(options.nvJitLink, options.chip, ptx,
                                         options.lineInfo);
    };
    // The kernel for one block per SM (chooseRegisters) is assembled on
    // another thread beside the main assembly: the compile waits for the
    // longer of the two, not for both (ptxas runs as a process of its own;
    // nvJitLink takes a handle per call).
    bool choosesRegisters =
        options.raiseOccupancy && options.maxRegisters == 0 &&
        result.kernels.size() == 1 && !result.kernels.front().tensorCores;
    std::future<AssembleResult> oneBlock;
    if (choosesRegisters)
      if (std::optional<std::string> text = withEntryDirective(
              result.ptx, result.kernels.front().name, kOneBlockPerSM))
        oneBlock = std::async(
            std::launch::async,
            [&assemble, text = std::move(*text)] { return assemble(text); });
    AssembleResult assembled = assemble(result.ptx);
    result.assembler = assembled.assembler;
    if (!assembled.succeeded) {
      diagnostics << "error: " << assembled.error << "\n";
      return;
    }
    result.cubin = std::move(assembled.cubin);
    for (KernelInfo &kernel : result.kernels) {
      if (auto used = readKernelResources(result.cubin, kernel.name)) {
        kernel.registers = used->registers;
        kernel.stackFrameBytes = used->stackFrameBytes;
      }
    }
    if (choosesRegisters)
      chooseRegisters(options.chip, result.kernels.front(), result.ptx,
                      result.cubin, result.cubinWithoutLimit, assemble,
                      oneBlock.valid() ? std::optional(oneBlock.get())
                                       : std::nullopt);
  }
  result.succeeded = true;
}

CompileResult mlir::tile::compileTileSource(StringRef source,
                                            StringRef bufferName,
                                            const CompileOptions &options) {
  CompileResult result;
  result.chip = options.chip;
  runWithLargeStack([&] { compile(source, bufferName, options, result); });
  return result;
}

//===- CodegenFlags.h - command-line switches of CompileOptions -*- C++ -*-===//
//
// The code-generation switches of CompileOptions as command-line options,
// defined once for every tool that compiles: tile-translate and tile-cc
// (`--line-info`), and the translations registered into other tools, whose
// options share the process-wide registry and so carry a prefix
// (`--tile-line-info`), `--maxnreg` and `--raise-occupancy`. Each default is
// CompileOptions' own.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_CODEGENFLAGS_H
#define TILE_TARGET_CODEGENFLAGS_H

#include "tile/Target/Compile.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::tile {

class CodegenFlags {
public:
  /// Registers the options named `<prefix>line-info`, ... in `category`.
  CodegenFlags(llvm::StringRef prefix, llvm::cl::OptionCategory &category)
      : lineInfoName((prefix + "line-info").str()),
        fpFusionName((prefix + "fp-fusion").str()),
        reflectFtzName((prefix + "reflect-ftz").str()),
        maxnregName((prefix + "maxnreg").str()),
        raiseOccupancyName((prefix + "raise-occupancy").str()),
        lineInfo(llvm::StringRef(lineInfoName), llvm::cl::cat(category),
                 llvm::cl::desc("Put the source's line table in the PTX and "
                                "the cubin (=false leaves it out)"),
                 llvm::cl::init(CompileOptions().lineInfo)),
        fpFusion(llvm::StringRef(fpFusionName), llvm::cl::cat(category),
                 llvm::cl::desc("Let a float multiply and add fuse into an "
                                "fma (=false rounds each)"),
                 llvm::cl::init(CompileOptions().fpFusion)),
        reflectFtz(llvm::StringRef(reflectFtzName), llvm::cl::cat(category),
                   llvm::cl::desc("Make libdevice's functions flush "
                                  "subnormals to zero, as Triton's "
                                  "enable_reflect_ftz (=false keeps them)"),
                   llvm::cl::init(CompileOptions().reflectFtz)),
        maxnreg(llvm::StringRef(maxnregName), llvm::cl::cat(category),
                llvm::cl::desc("The most registers a kernel's thread may use, "
                               "as Triton's maxnreg (0: no limit)"),
                llvm::cl::init(CompileOptions().maxRegisters)),
        raiseOccupancy(
            llvm::StringRef(raiseOccupancyName), llvm::cl::cat(category),
            llvm::cl::desc("Without --maxnreg, assemble a kernel whose "
                           "registers keep blocks off an SM again under a "
                           "limit that fits more, if nothing spills "
                           "(=false keeps the assembler's first choice)"),
            llvm::cl::init(CompileOptions().raiseOccupancy)) {}

  /// Sets the switches in `options` as the command line gave them.
  void apply(CompileOptions &options) const {
    options.lineInfo = lineInfo;
    options.fpFusion = fpFusion;
    options.reflectFtz = reflectFtz;
    options.maxRegisters = maxnreg;
    options.raiseOccupancy = raiseOccupancy;
  }

private:
  // The registry keeps the names as references: they live as long as the
  // options.
  std::string lineInfoName, fpFusionName, reflectFtzName, maxnregName,
      raiseOccupancyName;
  llvm::cl::opt<bool> lineInfo, fpFusion, reflectFtz;
  llvm::cl::opt<unsigned> maxnreg;
  llvm::cl::opt<bool> raiseOccupancy;
};

} // namespace mlir::tile

#endif // TILE_TARGET_CODEGENFLAGS_H

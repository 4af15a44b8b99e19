// Where a hifsim program finds what it ships with -- its data (configs/: unit configs, cost
// tables, sweeps; the shipped trace manifests) and its Python package (report rendering,
// perplexity, plots) -- so that the same code works in the build tree, after
// `cmake --install build --prefix P`, and inside the Python wheel, never reaching into the
// source tree once installed. The anchor is the file holding this code: the hifsim program, or
// the Python extension when the model runs inside Python.
//
//   layout       anchor                        data                          Python package root
//   build tree   build/bin/hifsim              the source tree               build/python
//   prefix       P/bin/hifsim                  P/share/hifsim                P/lib/hifsim/python
//   wheel        site-packages/hifsim/bin/     site-packages/hifsim/data     site-packages
//                site-packages/hifsim/_ext.so  site-packages/hifsim/data     site-packages
//
// $HIFSIM_DATA_DIR overrides the data folder and $HIFSIM_PYTHON the interpreter.
#pragma once
#include <string>
#include <vector>

namespace hifsim {

// The data folder (it holds configs/units). Throws hifsim::Error when no layout matches.
std::string data_dir();
// `p` itself when it exists or is absolute, else data_dir()/p when that exists, else p (so the
// error about a missing file names what the user typed).
std::string locate_data(const std::string& p);
// The folder holding hifsim/__init__.py, or "" when the program has no Python package.
std::string python_root();
// The interpreter that runs the package: $HIFSIM_PYTHON, else the one the build was configured
// with (when it still exists), else python3.
std::string python_exe();
// argv and environment to run `python -m hifsim.<module> args...` with this installation's
// package first on PYTHONPATH. Throws hifsim::Error naming `what` when there is no package.
struct PythonCommand {
  std::vector<std::string> argv;
  std::vector<std::string> env;  // NAME=VALUE
};
PythonCommand python_module(const std::string& module, const std::vector<std::string>& args, const std::string& what);

}  // namespace hifsim

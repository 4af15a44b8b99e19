// Helpers of the input-hardening tests: writing files, and running a reader in a child process
// with a deadline (a reader that blocks on a FIFO or reads /dev/zero forever must fail the test,
// not hang the suite). error_of and temp_dir are the shared ones (tests/common/errors_and_temp.hpp).
#pragma once
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "common/errors_and_temp.hpp"

namespace inputs_test {

using hifsim::test::error_of;

inline std::string temp_dir() { return hifsim::test::temp_dir("inputs-test"); }

inline void write_file(const std::string& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Runs f() in a child process. Returns the child's error message (as error_of), or "HUNG" when it
// did not finish within `seconds` (the child is killed).
inline std::string error_within(const std::function<void()>& f, double seconds) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const std::string m = error_of(f);
    const ssize_t w = write(fds[1], m.data(), m.size());
    (void)w;
    _exit(0);
  }
  close(fds[1]);
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > seconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(fds[0]);
      return "HUNG";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  return out;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace inputs_test

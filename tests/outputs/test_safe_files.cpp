// util/files: the writer every output goes through. Non-regular targets are refused and left
// alone, temporary names are unique (concurrent writers never share one, none is left behind),
// folders are created only through folders, and an OutputSet's manifest exists only when the
// set is complete and describes its files by hash.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/errors_and_temp.hpp"
#include "io/npy.hpp"
#include "util/content_hash.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/manifest.hpp"

using namespace hifsim;
using test::error_of;

namespace {

std::string read(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> v;
  DIR* d = opendir(dir.c_str());
  while (const dirent* e = d ? readdir(d) : nullptr)
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") v.push_back(e->d_name);
  if (d) closedir(d);
  return v;
}

}  // namespace

TEST(SafeFiles, RefusesAFifoAndLeavesIt) {
  const std::string d = test::temp_dir("files-test"), p = d + "/out.json";
  ASSERT_EQ(mkfifo(p.c_str(), 0666), 0);
  const std::string e = error_of([&] { write_file_atomic(p, "x"); });
  EXPECT_NE(e.find("a FIFO, not a regular file"), std::string::npos) << e;
  struct stat st;
  ASSERT_EQ(lstat(p.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries(d).size(), 1u) << "a temporary file was left";
}

// A link to a device is refused without touching either (a link to /dev/null is the safe
// stand-in for /dev/null itself, which a regression here must never be allowed to replace).
TEST(SafeFiles, RefusesALinkAndAFolder) {
  const std::string d = test::temp_dir("files-test"), link = d + "/null", dir = d + "/sub";
  ASSERT_EQ(symlink("/dev/null", link.c_str()), 0);
  EXPECT_NE(error_of([&] { write_file_atomic(link, "x"); }).find("a symbolic link"), std::string::npos);
  char target[64] = {0};
  ASSERT_GT(readlink(link.c_str(), target, sizeof target - 1), 0);
  EXPECT_STREQ(target, "/dev/null");
  ASSERT_EQ(mkdir(dir.c_str(), 0777), 0);
  EXPECT_NE(error_of([&] { write_file_atomic(dir, "x"); }).find("a folder"), std::string::npos);
  EXPECT_NE(error_of([&] { check_output_file(link); }), "");
}

TEST(SafeFiles, ReplacesARegularFileWhole) {
  const std::string d = test::temp_dir("files-test"), p = d + "/a.csv";
  write_file_atomic(p, "old\n");
  write_file_atomic(p, "new contents\n");
  EXPECT_EQ(read(p), "new contents\n");
  EXPECT_EQ(entries(d), std::vector<std::string>{"a.csv"});
}

// The old writer used <path>.tmp-hifsim for every run: a stale one blocked all later runs.
TEST(SafeFiles, TemporaryNamesAreUnique) {
  const std::string d = test::temp_dir("files-test"), p = d + "/r.json";
  ASSERT_EQ(mkdir((p + ".tmp-hifsim").c_str(), 0777), 0);
  write_file_atomic(p, "ok\n");
  EXPECT_EQ(read(p), "ok\n");
}

// Writers racing on one path: the result is exactly one writer's bytes, never a mix, and no
// temporary file survives.
TEST(SafeFiles, ConcurrentWritersLeaveOneWholeFile) {
  const std::string d = test::temp_dir("files-test"), p = d + "/race.bin";
  std::vector<std::string> payloads;
  for (int i = 0; i < 8; ++i) payloads.push_back(std::string(1 << 16, static_cast<char>('a' + i)));
  for (int round = 0; round < 10; ++round) {
    std::vector<std::thread> ts;
    for (const auto& s : payloads) ts.emplace_back([&p, &s] { write_file_atomic(p, s); });
    for (auto& t : ts) t.join();
    const std::string got = read(p);
    EXPECT_NE(std::find(payloads.begin(), payloads.end(), got), payloads.end()) << "mixed contents";
    EXPECT_EQ(entries(d).size(), 1u);
  }
}

TEST(SafeFiles, MakeDirsCreatesParentsButNotThroughAFile) {
  const std::string d = test::temp_dir("files-test");
  make_dirs(d + "/a/b/c");
  struct stat st;
  ASSERT_EQ(stat((d + "/a/b/c").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  std::ofstream(d + "/file") << "x";
  const std::string e = error_of([&] { make_dirs(d + "/file/sub"); });
  EXPECT_NE(e.find(d + "/file: exists and is not a folder"), std::string::npos) << e;
  EXPECT_NE(error_of([&] { check_output_dir(d + "/file/sub/deeper"); }).find("not a folder"), std::string::npos);
  EXPECT_EQ(error_of([&] { check_output_dir(d + "/new/deeper"); }), "");
}

TEST(OutputSet, ManifestLastWithEveryOutputsHash) {
  const std::string d = test::temp_dir("files-test") + "/out";
  {
    OutputSet o(d + "/manifest.json");
    o.expect(d + "/a.txt");
    o.add(d + "/a.txt", "alpha\n", "first");
    o.add(d + "/sub/b.txt", "beta\n", "second");
    Manifest m;
    m.command = "test";
    o.finish(m);
  }
  const std::string mj = read(d + "/manifest.json");
  EXPECT_NE(mj.find("\"outputs_xxh3_64\""), std::string::npos) << mj;
  EXPECT_NE(mj.find("\"" + d + "/sub/b.txt\": \"" + content_hash_hex("beta\n") + "\""), std::string::npos) << mj;
}

// XXH3-64 known answers (the values of the reference library, libxxhash 0.8.1 via Python ctypes):
// a different hash or seed, or a byte dropped at a chunk edge, changes them.
TEST(ContentHash, KnownAnswersAndStreaming) {
  EXPECT_EQ(content_hash_hex(""), "2d06800538d394c2");
  EXPECT_EQ(content_hash_hex("beta\n"), "f9f6340767ab9db5");
  std::string bytes;
  for (int r = 0; r < 5; ++r)
    for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  EXPECT_EQ(content_hash_hex(bytes), "4844b009e164352e");
  ContentHasher h;
  for (size_t at = 0; at < bytes.size(); at += 37) h.update(bytes.data() + at, std::min<size_t>(37, bytes.size() - at));
  EXPECT_EQ(h.hex(), "4844b009e164352e");
}

// The hash remembered by the writer and by the .npy reader (no second pass over the file) is the
// hash of the whole file, and a file rewritten since is hashed again.
TEST(ContentHash, WritersAndReaderRememberTheWholeFilesHash) {
  const std::string d = test::temp_dir("content-hash-test");
  // A 3 MiB array: the writer's and the reader's 1 MiB chunks and the header's double read.
  std::vector<float> x((3u << 20) / 4 + 5);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.25f - 7.0f;
  const std::string p = d + "/x.npy";
  io::write_npy(p, {x.size()}, x.data());
  const std::string whole = read(p);
  EXPECT_EQ(file_content_hash(p), content_hash_hex(whole));  // the writer's
  // The reader, on a version-2.0 file (12-byte preamble) written by another program.
  std::string v2 = whole;
  v2[6] = 2;
  v2.insert(10, 2, '\0');  // 4-byte header length, same value
  v2[8] = whole[8], v2[9] = whole[9], v2[10] = 0, v2[11] = 0;
  for (const std::string& bytes : {whole, v2}) {
    const std::string q = d + "/y.npy";
    std::ofstream(q, std::ios::binary) << bytes;
    EXPECT_EQ(file_content_hash(q), content_hash_hex(bytes));  // read and hashed
    const io::NpyArray a = io::read_npy(q);
    ASSERT_EQ(a.f32.size(), x.size());
    remember_content_hash(q, "0");  // what the reader records must replace this
    (void)io::read_npy(q);
    EXPECT_EQ(file_content_hash(q), content_hash_hex(bytes));
  }
  // Rewritten in place (other size): the remembered value no longer applies.
  std::ofstream(p, std::ios::binary) << "other";
  EXPECT_EQ(file_content_hash(p), content_hash_hex("other"));
  EXPECT_EQ(file_content_hash(d + "/absent"), "missing");
}

// A failure while writing (here an output turned into a FIFO after the checks) changes
// nothing: the outputs are written under temporary names first and renamed only when all are
// whole, so the earlier run's files and manifest stay as they were and no new file or
// temporary is left.
TEST(OutputSet, AFailedWriteChangesNothing) {
  const std::string d = test::temp_dir("files-test");
  write_file_atomic(d + "/manifest.json", "{\"earlier\": true}\n");
  write_file_atomic(d + "/c.txt", "earlier c\n");
  OutputSet o(d + "/manifest.json");
  o.expect(d + "/b.txt");
  o.add(d + "/c.txt", "c\n", "c");
  o.add(d + "/a.txt", "a\n", "a");
  o.add(d + "/b.txt", "b\n", "b");
  ASSERT_EQ(mkfifo((d + "/b.txt").c_str(), 0666), 0);
  EXPECT_THROW(o.write(), Error);
  EXPECT_EQ(read(d + "/manifest.json"), "{\"earlier\": true}\n");
  EXPECT_EQ(read(d + "/c.txt"), "earlier c\n");
  EXPECT_FALSE(path_exists(d + "/a.txt"));
  DIR* dir = opendir(d.c_str());
  ASSERT_NE(dir, nullptr);
  while (const dirent* e = readdir(dir)) EXPECT_EQ(std::string(e->d_name).find("tmp-hifsim"), std::string::npos) << e->d_name;
  closedir(dir);
}

// The same output named twice (gemm --stats equal to --out), or the same file under two
// spellings, is refused when declared, before any work.
TEST(OutputSet, TheSameOutputTwiceIsRefused) {
  const std::string d = test::temp_dir("files-test");
  OutputSet o(d + "/out/manifest.json");
  o.expect(d + "/out/c.npy");
  EXPECT_THROW(o.expect(d + "/out/c.npy"), Error);
  EXPECT_THROW(o.expect(d + "/out/./sub/../c.npy"), Error);
  EXPECT_THROW(o.expect(d + "//out/manifest.json"), Error);
  o.expect(d + "/out/d.npy");
}

// Replacing an output keeps its mode: a 0600 file stays 0600.
TEST(OutputSet, AReplacedOutputKeepsItsMode) {
  const std::string d = test::temp_dir("files-test");
  write_file_atomic(d + "/secret.txt", "old\n");
  ASSERT_EQ(chmod((d + "/secret.txt").c_str(), 0600), 0);
  write_file_atomic(d + "/secret.txt", "new\n");
  struct stat st;
  ASSERT_EQ(stat((d + "/secret.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(read(d + "/secret.txt"), "new\n");
}

// An output name the folder cannot hold is refused when declared (before: the output was
// written and its manifest, 14 bytes longer, failed with ENAMETOOLONG); a name a little
// shorter than the limit still works although its temporary name would be too long.
TEST(OutputSet, NamesAtTheLimit) {
  const std::string d = test::temp_dir("files-test");
  OutputSet o(d + "/manifest.json");
  EXPECT_THROW(o.expect(d + "/" + std::string(256, 'x')), Error);
  const std::string long_name = d + "/" + std::string(250, 'y');
  o.expect(long_name);
  o.add(long_name, "y\n", "y");
  Manifest m;
  o.finish(m);
  EXPECT_EQ(read(long_name), "y\n");
}

// write_manifest() serves a program that reads it (the report); an error before finish()
// removes it again.
TEST(OutputSet, AnUnfinishedManifestIsRemoved) {
  const std::string d = test::temp_dir("files-test");
  {
    OutputSet o(d + "/manifest.json");
    o.add(d + "/a.txt", "a\n", "a");
    Manifest m;
    o.write_manifest(m);
    EXPECT_TRUE(path_exists(d + "/manifest.json"));
  }
  EXPECT_FALSE(path_exists(d + "/manifest.json"));
  EXPECT_TRUE(path_exists(d + "/a.txt"));
}

TEST(OutputSet, ChecksBeforeAnyWork) {
  const std::string d = test::temp_dir("files-test");
  ASSERT_EQ(mkfifo((d + "/manifest.json").c_str(), 0666), 0);
  EXPECT_THROW(OutputSet(d + "/manifest.json"), Error);
  ASSERT_EQ(mkfifo((d + "/x.npy").c_str(), 0666), 0);
  OutputSet o(d + "/other/manifest.json");
  EXPECT_THROW(o.expect(d + "/x.npy"), Error);
  EXPECT_FALSE(path_exists(d + "/other")) << "a check created the folder";
  ASSERT_EQ(mkfifo((d + "/plot.png").c_str(), 0666), 0);
  EXPECT_NE(error_of([&] { check_folder_entries(d); }).find("not a regular file"), std::string::npos);
}

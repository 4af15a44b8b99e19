#include "eval/operand_cache.hpp"

namespace hifsim::eval {

const io::Operand& OperandCache::get(const io::TraceOp& op, const std::string& which, uint64_t bi) {
  const Key key{op.name, which, bi};
  std::unique_lock<std::mutex> lock(mu_);
  Slot& slot = slots_[key];  // std::map: references stay valid as other slots are added
  while (slot.loading) ready_.wait(lock);
  if (slot.value) return *slot.value;
  slot.loading = true;
  lock.unlock();
  std::unique_ptr<io::Operand> v;
  try {
    v = std::make_unique<io::Operand>(io::load_operand(trace_, op, which, bi));
  } catch (...) {
    lock.lock();
    slot.loading = false;
    ready_.notify_all();
    throw;
  }
  lock.lock();
  slot.value = std::move(v);
  slot.loading = false;
  ++reads_;
  ready_.notify_all();
  return *slot.value;
}

void OperandCache::release(const io::TraceOp& op) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = slots_.begin(); it != slots_.end();) {
    if (std::get<0>(it->first) == op.name && !it->second.loading) it = slots_.erase(it);
    else ++it;
  }
}

}  // namespace hifsim::eval

// libsystemc.so references sc_main (its own main() would call it). hifsim has its own main() and
// starts SystemC simulations directly from `hifsim run` (model/tlm/run_tlm.cpp), so this is never
// called; it only satisfies the linker.
extern "C" int sc_main(int, char**) { return 1; }

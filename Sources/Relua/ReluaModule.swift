/// The scripting host module. See Values/ for the state value and its Lua views.
enum ReluaModule {}

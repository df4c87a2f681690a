// The parent's own target named gen_module: plain C++17.
#if __cplusplus != 201703L
#error "the parent's own code must compile as C++17"
#endif
#include <optional>

int main() { return std::optional<int>(0).value(); }

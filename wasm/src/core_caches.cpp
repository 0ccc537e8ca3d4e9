// The one instance of each cache the core keeps (core_caches.hpp).
#include "core_caches.hpp"

namespace sqrtdk::cache {

HeadScratch& attention_head_scratch() {
  static HeadScratch s;
  return s;
}

LongContextKeys& long_context_keys() {
  static LongContextKeys k;
  return k;
}

LongContextProducts& long_context_products() {
  static LongContextProducts p;
  return p;
}

}  // namespace sqrtdk::cache

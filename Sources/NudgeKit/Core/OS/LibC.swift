// The C library, imported once for the whole module (and its executables).
#if canImport(Glibc)
@_exported @preconcurrency import Glibc
#elseif canImport(Musl)
@_exported @preconcurrency import Musl
#elseif canImport(Darwin)
@_exported @preconcurrency import Darwin
#endif

import HFRCommands

#if canImport(Glibc)
    import Glibc
#endif

exit(HFR.main(Array(CommandLine.arguments.dropFirst())))

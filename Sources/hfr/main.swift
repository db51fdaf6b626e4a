import HFRCommands
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

CrashSignal.install()
exit(HFR.main(Array(CommandLine.arguments.dropFirst())))

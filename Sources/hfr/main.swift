import HFRCommands
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

Signals.installCrashHandlers()
// The arguments from their bytes: a file name that is not UTF-8 stays the name it is (`PathBytes`).
exit(HFR.main(PathBytes.arguments()))

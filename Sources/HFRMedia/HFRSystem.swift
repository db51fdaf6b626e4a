// HFRSystem's threads, queues, locks, console and files are part of HFRMedia's own interface
// (`Errno` in its errors, `MappedFile` under its packets): every client of HFRMedia has them.
@_exported public import HFRSystem

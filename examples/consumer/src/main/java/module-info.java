/** A user's program that reads and writes through Sluice; runs on the module path or the class path. */
module example {
    requires dev.sluice;
}

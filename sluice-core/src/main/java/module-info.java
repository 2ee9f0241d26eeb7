/**
 * Sluice: fast file and stream I/O whose defaults were chosen by benchmark.
 */
module dev.sluice {
    requires java.management;
    requires static jdk.management;

    exports dev.sluice.io;
    exports dev.sluice.file;
    exports dev.sluice.gzip;
    exports dev.sluice.text;
}

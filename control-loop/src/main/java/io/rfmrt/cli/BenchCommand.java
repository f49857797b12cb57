package io.rfmrt.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks.")
final class BenchCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        return Main.EXIT_OK;
    }
}

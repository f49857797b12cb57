package io.rfmrt.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "demo", mixinStandardHelpOptions = true, description = "Two-process demo on an emulated network.")
final class DemoCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        return Main.EXIT_OK;
    }
}

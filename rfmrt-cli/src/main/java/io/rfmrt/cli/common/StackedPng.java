package io.rfmrt.cli.common;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Several charts drawn one under the other into one PNG (small multiples): each keeps its own size, the image is as
 * wide as the widest. Headless.
 */
public final class StackedPng
{
    private StackedPng()
    {
    }

    /**
     * @param charts the panels, top first.
     * @param file   where; its folder is created, the file replaced.
     * @throws IOException when it cannot be written.
     */
    public static void write(final List<? extends Chart<?, ?>> charts, final Path file) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        final List<BufferedImage> panels = new ArrayList<>(charts.size());
        int width = 0;
        int height = 0;
        for (final Chart<?, ?> chart : charts)
        {
            final BufferedImage panel = BitmapEncoder.getBufferedImage(chart);
            panels.add(panel);
            width = Math.max(width, panel.getWidth());
            height += panel.getHeight();
        }
        final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        try
        {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            int y = 0;
            for (final BufferedImage panel : panels)
            {
                g.drawImage(panel, 0, y, null);
                y += panel.getHeight();
            }
        }
        finally
        {
            g.dispose();
        }
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(image, "png", file.toFile()))
        {
            throw new IOException("no PNG writer for " + file);
        }
    }
}

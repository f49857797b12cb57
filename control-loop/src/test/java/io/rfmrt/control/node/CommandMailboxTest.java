package io.rfmrt.control.node;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plant's command mailbox, offered and taken by hand: the newest command up to the cycle the drive may act on,
 * nothing older than what it holds, a command not newer than the newest ignored, and a lap of the slots not taken as
 * the cycle it overwrote.
 */
class CommandMailboxTest
{
    private final CommandMailbox box = new CommandMailbox();

    @Test
    void shouldTakeTheNewestCommandTheDriveMayActOn()
    {
        assertThat(box.take(10, 0)).isFalse();
        assertThat(box.offer(3, 0.25, 0x0f)).isTrue();
        assertThat(box.offer(4, -0.5, 0x8f)).isTrue();
        assertThat(box.offer(4, 9.0, 0)).as("not newer: ignored").isFalse();
        assertThat(box.offer(2, 9.0, 0)).isFalse();
        assertThat(box.offer(6, 0.75, 0x06)).isTrue();

        assertThat(box.take(5, 0)).isTrue();
        assertThat(box.cycle()).isEqualTo(4);
        assertThat(box.torque()).isEqualTo(-0.5);
        assertThat(box.word()).isEqualTo(0x8f);
        assertThat(box.take(5, 4)).as("nothing newer than what the drive holds").isFalse();
        assertThat(box.take(100, 4)).isTrue();
        assertThat(box.cycle()).isEqualTo(6);
        assertThat(box.torque()).isEqualTo(0.75);
    }

    @Test
    void shouldNotTakeASlotAnotherCycleOverwrote()
    {
        box.offer(5, 1.0, 1);
        box.offer(5 + CommandMailbox.SLOTS, 2.0, 2);
        // cycle 5's slot now holds the later cycle: asking up to 5 finds nothing (and 5 is too old to look at anyway)
        assertThat(box.take(5, 0)).isFalse();
        assertThat(box.take(5 + CommandMailbox.SLOTS, 0)).isTrue();
        assertThat(box.torque()).isEqualTo(2.0);
    }
}

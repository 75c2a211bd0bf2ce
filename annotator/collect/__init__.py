"""The collection engine: one trajectory on one phone, observe -> decide -> act -> record (`session`), with a
person's commands (`teleop`) or a VLM agent (`agent`) deciding (`decide`)."""

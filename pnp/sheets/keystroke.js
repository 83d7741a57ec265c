if (!event.willCommit) event.rc = /^[0-9]*$/.test(event.change);

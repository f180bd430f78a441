"""`open_storage` and `upgrade_records` (api/storage/access.py): the one way in to storage for the app and the CLI."""

from fanshot.api.storage.access import open_storage, upgrade_records
from fanshot.api.storage.game_events import LocalGameEvents


def test_open_storage_keeps_everything_under_the_data_directory_on_one_database(tmp_path):
    storage = open_storage(tmp_path / "data")
    assert (tmp_path / "data" / "fanshot.sqlite3").is_file()
    assert isinstance(storage.game_events, LocalGameEvents)  # the embedded database: this process's followers
    game = storage.games.create({"ruleset": "jipinghu", "players": ["a", "b", "c", "d"], "options": {}, "stake": {}})
    assert open_storage(tmp_path / "data").games.get(game.id).setup == game.setup


def test_upgrade_records_makes_the_data_directory_and_migrates_once(tmp_path):
    before, after = upgrade_records(tmp_path / "new")
    assert before is None and after and (tmp_path / "new" / "fanshot.sqlite3").is_file()
    assert upgrade_records(tmp_path / "new") == (after, after)
